// How close a durable compare comes to the model's own speed. For each row (N cases, L ms per call, C calls in flight)
// it runs, in this one process tree: the in-process limit (C lanes calling the same fake in a loop), then the real
// `llm-evals compare -p C` on the same N cases against the embedded Temporal server, with the fake in the CLI's process:
// the suite's first compare (its helper compiled, its first run on the server), then the same compare again.
// It prints the wall time, the ratio to N·L/C, cases/s, the peak RSS of the CLI and of the server, the calls the fake
// counted (must be N) and the mean calls in flight outside the first and last second (the target is ≥ 0.95·C).
// Usage: node --import tsx bench/throughput.ts [N/L/C ...]     (default: 2000/200/16 500/1000/50 1000/0/16)
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { EchoAdapter } from '../src/api/testing.ts';
import type { Case } from '../src/api/types.ts';
import { FixedLatencyProvider, meanInFlight, type LatencyStats } from './fixed-latency.ts';
import { benchEnv, fixedLatencyHelper, numberedCase, phaseMarks, writeBenchSuite } from './toy-cli.ts';

const rows = (
  process.argv.length > 2 ? process.argv.slice(2) : ['2000/200/16', '500/1000/50', '1000/0/16']
).map((row) => {
  const [n, l, c] = row.split('/').map(Number);
  return { n: n!, l: l!, c: c! };
});
const repo = resolve(import.meta.dirname, '..');
const bin = join(repo, 'bin', 'llm-evals.mjs');
const root = join(repo, 'tmp', 'bench-throughput');
const stateDir = join(root, 'state');
const env = benchEnv(root, '7633');

/** The suite of `n` cases on the fixed-latency fake, and the cases as the in-process limit runs them. */
function writeSuite(dir: string, n: number, latency: number): Case[] {
  rmSync(join(dir, 'evals'), { recursive: true, force: true });
  const lineup = 'request_types: [prompt]\nresults: { display: none }\nbench: { models: [echo] }\n';
  writeBenchSuite(dir, { helper: fixedLatencyHelper('throughput', latency), lineup }, n);
  return Array.from({ length: n }, (_, i) => {
    const { id } = numberedCase(i);
    return {
      id,
      key: `d/${id}`,
      dataset: 'd',
      variant: 'v',
      input: `case ${i}`,
      expected: { n: i },
      path: join(dir, 'evals', 'datasets', 'd', 'cases', id),
      metadata: {},
    };
  });
}

/** The in-process limit: C lanes running the adapter against the fake, case after case, no durability. */
async function inProcess(cases: Case[], latency: number, lanes: number) {
  const provider = new FixedLatencyProvider(latency);
  const adapter = new EchoAdapter();
  const model = {
    id: 'bench/echo',
    name: 'echo',
    provider: 'bench',
    complete: (r: Parameters<FixedLatencyProvider['complete']>[1]) =>
      provider.complete({ id: 'bench/echo', name: 'echo' }, r),
  };
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < cases.length) await adapter.call(cases[next++]!, model);
    }),
  );
  return { seconds: (performance.now() - started) / 1000, stats: provider.stats };
}

function serverPid(): number | undefined {
  for (const file of [join(stateDir, 'server.json'), join(root, 'suite', '.llm-evals', 'server.json')]) {
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid;
  }
  return undefined;
}

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs the CLI under /usr/bin/time for its peak RSS, sampling the server's RSS meanwhile. */
async function cli(args: string[], cwd: string, extra: NodeJS.ProcessEnv) {
  const server = serverPid();
  let serverPeak = rssMb(server);
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, bin, ...args], {
    cwd,
    env: { ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  child.stdout.resume();
  const exited = new Promise<number | null>((done) => child.on('close', done));
  let code: number | null | undefined;
  void exited.then((c) => (code = c));
  while (code === undefined) {
    serverPeak = Math.max(serverPeak, rssMb(server));
    await Promise.race([exited, sleep(100)]);
  }
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`llm-evals ${args.join(' ')} exited ${code}:\n${stderr.slice(-4000)}`);
  const cliPeak = Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1024;
  return { seconds, cliPeak, serverPeak, stderr };
}

const table: string[][] = [];
const suiteDir = join(root, 'suite');
mkdirSync(suiteDir, { recursive: true });
await cli(['server', 'start'], suiteDir, {}).catch((error: Error) => console.error(error.message));
try {
  for (const { n, l, c } of rows) {
    const cases = writeSuite(suiteDir, n, l);
    const limit = (n * l) / c / 1000;
    const loop = await inProcess(cases, l, c);
    const fmtRatio = (s: number) => (limit > 0 ? `${(s / limit).toFixed(2)}×` : '-');
    // Calls too short to leave anything between their first and last second have no mean in flight.
    const fmtMean = (mean: number | null) => (mean === null ? '-' : mean.toFixed(1));
    table.push([
      `${n}/${l}/${c}`,
      'in-process loop',
      loop.seconds.toFixed(2),
      fmtRatio(loop.seconds),
      loop.seconds.toFixed(2),
      (n / loop.seconds).toFixed(0),
      '-',
      '-',
      String(loop.stats.calls),
      fmtMean(meanInFlight(loop.stats.inFlight)),
    ]);
    // The suite's first compare (its helper compiled, the run's first on this server), then the same compare again:
    // what a compare costs once, and each time after.
    const walls: number[] = [];
    for (const what of ['llm-evals compare', 'compare, again']) {
      const statsFile = join(root, `stats-${n}-${l}-${c}.json`);
      rmSync(statsFile, { force: true });
      // --no-cache: each compare calls every case, as the row measures (bench/cache.ts measures the cache).
      const run = await cli(
        ['compare', '-p', String(c), '-j', '1', '--no-autosave', '--no-cache'],
        suiteDir,
        {
          BENCH_STATS_FILE: statsFile,
        },
      );
      walls.push(run.seconds);
      const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as LatencyStats;
      const mean = meanInFlight(stats.inFlight);
      // The run itself: from the first call's start to the last call's end, as the fake saw them.
      const span = (stats.inFlight.at(-1)?.[0] ?? 0) / 1000;
      table.push([
        `${n}/${l}/${c}`,
        what,
        run.seconds.toFixed(2),
        fmtRatio(run.seconds),
        span.toFixed(2),
        (n / span).toFixed(0),
        run.cliPeak.toFixed(0),
        run.serverPeak.toFixed(0),
        String(stats.calls),
        fmtMean(mean),
      ]);
      // With LLM_EVALS_TIMINGS set, where the compare's own time went (its phase marks, the fake's first and last call).
      if (process.env.LLM_EVALS_TIMINGS) {
        console.error(phaseMarks(run.stderr).join(' · '));
      }
    }
    console.error(
      `row ${n}/${l}/${c}: limit ${limit.toFixed(1)} s, loop ${loop.seconds.toFixed(2)} s, compare ${walls.map((w) => w.toFixed(2)).join(' s, again ')} s`,
    );
  }
} finally {
  await cli(['server', 'stop'], suiteDir, {}).catch(() => undefined);
}
const head = [
  'N/L/C',
  'what',
  'wall s',
  'ratio',
  'run s',
  'run cases/s',
  'CLI MB',
  'server MB',
  'calls',
  'in flight',
];
const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
for (const line of [head, ...table]) console.log(line.map((cell, i) => cell.padStart(widths[i]!)).join('  '));

// What any Node process costs to start on this machine, in every compare row's wall and in none of the loop's
// (NODE_EXTRA_CA_CERTS, when set, has Node read that bundle before it runs anything).
const bare: number[] = [];
for (let i = 0; i < 5; i++) {
  const started = performance.now();
  await new Promise((done) => spawn(process.execPath, ['-e', ''], { env }).on('close', done));
  bare.push(performance.now() - started);
}
bare.sort((a, b) => a - b);
const extraCa = process.env.NODE_EXTRA_CA_CERTS ? ', NODE_EXTRA_CA_CERTS set' : '';
console.log(`a bare node start here: ${bare[2]!.toFixed(0)} ms (median of 5${extraCa})`);
