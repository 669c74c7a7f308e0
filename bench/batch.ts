// What `compare --batch` sends and costs. With N cases (2000) of the toy suite against the fake Batch API
// (test/helpers/batch-server.ts, which also answers chat completions one by one), it runs the real `llm-evals compare`
// on its own embedded Temporal server twice, each with an empty reply cache: with `--batch` (looks at the batch
// every 1 to 4 s), then without. It prints per run the batches created, the requests they held, the chat calls made
// one by one, the cases scored, the run's cost from its snapshot and its wall time, and what the batch run printed.
// Usage: node --import tsx bench/batch.ts [N]     (default: 2000)
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Snapshot } from '../src/core/snapshot.ts';
import { BatchServer } from '../test/helpers/batch-server.ts';
import { benchEnv, runToyCli, writeToySuite } from './toy-cli.ts';

const n = Number(process.argv[2] ?? 2000);
const repo = resolve(import.meta.dirname, '..');
const root = join(repo, 'tmp', 'bench-batch');
const suiteDir = join(root, 'suite');
const env = benchEnv(root, '7645', {
  COLUMNS: '120',
  LLM_EVALS_BATCH_POLL: '1,4',
  BENCH_BATCH_KEY: 'sk-bench',
});

function writeSuite(url: string): void {
  writeToySuite(
    suiteDir,
    [
      'openai:',
      `  base_url: ${url}`,
      '  api_key_env: BENCH_BATCH_KEY',
      '  prices: { input: 1000, output: 2000 }',
      '  batch: true',
      '  models: [gpt-x]',
    ],
    n,
  );
}

const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
  runToyCli(args, suiteDir, { ...env, ...extra });

/** The snapshot the last run saved. */
function lastSnapshot(): Snapshot {
  const dir = join(suiteDir, 'evals', 'results');
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .at(-1)!;
  return JSON.parse(readFileSync(join(dir, file), 'utf8')) as Snapshot;
}

rmSync(root, { recursive: true, force: true });
const server = new BatchServer({ delayMs: 2000, chat: true });
writeSuite(await server.start());
await cli(['server', 'start']).catch((error: Error) => console.error(error.message));
const rows: string[] = [];
let printed = '';
try {
  for (const batch of [true, false]) {
    const before = {
      batches: server.batches.length,
      requests: server.requests.length,
      chat: server.chatCalls,
    };
    const flags = ['compare', '-p', '16', '--display', 'tui', '--no-open', ...(batch ? ['--batch'] : [])];
    const run = await cli(flags, {
      LLM_EVALS_CACHE_DIR: join(root, batch ? 'replies-batch' : 'replies-direct'),
    });
    const snapshot = lastSnapshot();
    const cost = snapshot.results.reduce((sum, r) => sum + (r.usage.costUsd ?? 0), 0);
    const scored = snapshot.results.filter((r) => r.status === 'scored').length;
    rows.push(
      `${(batch ? 'compare --batch' : 'compare').padEnd(16)} batches ${server.batches.length - before.batches}  ` +
        `requests in them ${server.requests.length - before.requests}  chat calls ${server.chatCalls - before.chat}  ` +
        `scored ${scored}/${n}  cost $${cost.toFixed(4)}  wall ${run.seconds.toFixed(1)} s`,
    );
    if (batch)
      printed =
        run.stdout.split('\n').slice(0, 6).join('\n') + '\n' + run.stderr.split('\n').slice(-6).join('\n');
  }
} finally {
  await cli(['server', 'stop']).catch(() => undefined);
  await server.stop();
}
console.log(`${n} cases, 1 contender, the fake Batch API ending each batch 2 s after it was made`);
for (const row of rows) console.log(row);
console.log('\nwhat compare --batch printed (table head, last lines of stderr):\n' + printed);
