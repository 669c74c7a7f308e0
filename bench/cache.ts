// What the reply cache saves. With a fake provider of fixed latency (200 ms), N cases (2000) and `-p` C (16), it runs
// the real `llm-evals compare` against the embedded Temporal server: a first compare (every call made, every reply
// kept), the same compare again (no call), again after editing 10 cases' expected answers (the toy request repeats
// them, so 10 calls), and after adding a contender (its N calls only). It prints each run's wall time, its ratio to
// the first run's, and the calls the fake counted. Then, in this process, what a lookup costs: a key and a read of
// the store, per case, with 20,000 entries in it.
// Usage: node --import tsx bench/cache.ts [N/L/C]     (default: 2000/200/16)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { replyKey } from '../src/cache/key.ts';
import { ReplyStore } from '../src/cache/store.ts';
import type { LatencyStats } from './fixed-latency.ts';
import { benchEnv, fixedLatencyHelper, runToyCli, withBenchServer, writeBenchSuite } from './toy-cli.ts';

const [n, latency, lanes] = (process.argv[2] ?? '2000/200/16').split('/').map(Number) as [
  number,
  number,
  number,
];
const ENTRIES = 20_000;
const repo = resolve(import.meta.dirname, '..');
const root = join(repo, 'tmp', 'bench-cache');
const suiteDir = join(root, 'suite');
const env = benchEnv(root, '7643', { LLM_EVALS_CACHE_DIR: join(root, 'replies') });

/** The lineup: the fake at temperature 0, and with `more` a second contender at 0.5. */
function lineup(more: boolean): string {
  const temperatures = more ? '[0, 0.5]' : '[0]';
  return `request_types: [prompt]\nresults: { display: none }\nbench: { models: [{ model: echo, temperature: ${temperatures} }] }\n`;
}

function writeSuite(): void {
  rmSync(join(suiteDir, 'evals'), { recursive: true, force: true });
  writeBenchSuite(suiteDir, { helper: fixedLatencyHelper('cache-bench', latency), lineup: lineup(false) }, n);
}

/** Runs `llm-evals args` in the suite, with `extra` in its environment. */
const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runToyCli(args, suiteDir, { ...env, ...extra });

/** One compare: its wall time, the calls the fake counted, and the cache's line. */
async function compare(what: string, jobs = 1) {
  const statsFile = join(root, 'stats.json');
  rmSync(statsFile, { force: true });
  const run = await cli(['compare', '-p', String(lanes), '-j', String(jobs), '--no-autosave'], {
    BENCH_STATS_FILE: statsFile,
  });
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as LatencyStats;
  const line = /\d+ of \d+ replies from the cache[^\n;]*/.exec(run.stderr)?.[0] ?? '-';
  return { what, seconds: run.seconds, calls: stats.calls, line };
}

rmSync(root, { recursive: true, force: true });
mkdirSync(suiteDir, { recursive: true });
writeSuite();
const rows = await withBenchServer(cli, async () => {
  const done = [await compare('first compare (empty cache)'), await compare('the same compare again')];
  for (let i = 0; i < 10; i++) {
    const file = join(
      suiteDir,
      'evals',
      'datasets',
      'd',
      'cases',
      'v',
      String(i * 7).padStart(5, '0'),
      'expected.json',
    );
    writeFileSync(file, JSON.stringify({ n: i * 7, edited: true }));
  }
  done.push(await compare('after editing 10 cases'));
  writeFileSync(join(suiteDir, 'evals', '.llm-evals.config.yml'), lineup(true));
  done.push(await compare('after adding a contender', 2));
  return done;
});
const first = rows[0]!.seconds;
const model = ((n * latency) / lanes / 1000).toFixed(1);
console.log(
  `${n} cases, ${latency} ms per call, -p ${lanes} (the model's own time: ${model} s per contender)`,
);
for (const r of rows) {
  const ratio = `${((100 * r.seconds) / first).toFixed(0)} %`;
  console.log(
    `${r.what.padEnd(28)}  wall ${r.seconds.toFixed(2).padStart(6)} s  ${ratio.padStart(5)} of the first  calls ${String(r.calls).padStart(5)}  ${r.line}`,
  );
}

// A lookup: the key of a request and a read of the store, at 20,000 entries (a hit each, then a miss each).
const store = new ReplyStore(join(root, 'lookup'));
const model0 = { id: 'bench/echo', name: 'echo', provider: 'bench', temperature: 0 };
const request = (i: number) => ({
  system: 'Repeat the JSON object you are given, exactly.',
  user: JSON.stringify({ n: i }),
  json: true,
});
const keyOf = (i: number) => replyKey({ provider: 'bench', model: model0, request: request(i) });
for (let i = 0; i < ENTRIES; i += 500) {
  await Promise.all(
    Array.from({ length: 500 }, (_, j) =>
      store.put({
        version: 1,
        key: keyOf(i + j),
        storedAt: new Date().toISOString(),
        provider: 'bench',
        model: 'bench/echo',
        response: {
          text: JSON.stringify({ n: i + j }),
          usage: { inputTokens: 10, outputTokens: 5, costUsd: 0 },
        },
        latency: 0.2,
      }),
    ),
  );
}
for (const [what, offset] of [
  ['hit', 0],
  ['miss', ENTRIES],
] as const) {
  const picks = Array.from({ length: 2000 }, (_, i) => offset + ((i * 7919) % ENTRIES));
  const started = performance.now();
  for (const i of picks) {
    const entry = await store.get(keyOf(i));
    if ((entry === undefined) !== (what === 'miss')) throw new Error(`lookup ${i}: expected a ${what}`);
  }
  const ms = (performance.now() - started) / picks.length;
  console.log(`lookup at ${ENTRIES} entries, a ${what}: ${ms.toFixed(3)} ms per case (2000 in a row)`);
}
