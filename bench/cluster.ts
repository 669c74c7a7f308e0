// Throughput on the production-shaped cluster (dev/cluster.sh: Temporal v1.32 on PostgreSQL, 4 history shards) beside
// the embedded dev server (SQLite), on the same machine: `llm-evals compare -p C` of N cases against a fake model of
// L ms a call, in the CLI's process, for L = 0 and 200 ms. Each target gets one warm-up compare (the helper compiled,
// the queue's first run), then the measured one. Prints the wall time, the run's span as the fake saw it (first call
// to last), cases/s over that span, the ratio to N·L/C, and the calls counted (must be N).
// Usage: nice node --import tsx bench/cluster.ts [N] [C]       (default 1000 16; dev/cluster.sh up runs first)
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { LatencyStats } from './fixed-latency.ts';
import { fixedLatencyHelper, writeBenchSuite } from './toy-cli.ts';

const n = Number(process.argv[2] ?? 1000);
const c = Number(process.argv[3] ?? 16);
const repo = resolve(import.meta.dirname, '..');
const bin = join(repo, 'bin', 'llm-evals.mjs');
const root = join(repo, 'tmp', 'bench-cluster');

/** A suite of `n` cases answered by FixedLatencyProvider(BENCH_LATENCY_MS), its stats written to BENCH_STATS_FILE. */
function writeSuite(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  writeBenchSuite(
    dir,
    {
      helper: fixedLatencyHelper('cluster-bench', 'Number(process.env.BENCH_LATENCY_MS)'),
      lineup: 'request_types: [prompt]\nresults: { display: none }\nbench: { models: [echo] }\n',
    },
    n,
  );
}

/** One compare: its wall time and what the fake counted. */
async function compare(cwd: string, env: NodeJS.ProcessEnv, latency: number) {
  const statsFile = join(root, `stats-${process.pid}.json`);
  rmSync(statsFile, { force: true });
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [bin, 'compare', '-p', String(c), '-j', '1', '--no-autosave', '--no-cache'],
    {
      cwd,
      env: { ...env, NO_COLOR: '1', BENCH_STATS_FILE: statsFile, BENCH_LATENCY_MS: String(latency) },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  if (code !== 0) throw new Error(`compare exited ${code}:\n${stderr}`);
  const seconds = (performance.now() - started) / 1000;
  const stats = JSON.parse(readFileSync(statsFile, 'utf8')) as LatencyStats;
  return { seconds, span: (stats.inFlight.at(-1)?.[0] ?? 0) / 1000, calls: stats.calls };
}

const clusterAddress = execFileSync(join(repo, 'dev', 'cluster.sh'), ['up'], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .at(-1)!;
const targets: [string, NodeJS.ProcessEnv][] = [
  [
    'dev server (SQLite)',
    {
      ...process.env,
      TEMPORAL_ADDRESS: '',
      LLM_EVALS_STATE_DIR: join(root, 'dev-state'),
      LLM_EVALS_TEMPORAL_PORT: process.env.LLM_EVALS_TEMPORAL_PORT ?? '7733',
    },
  ],
  [`cluster ${clusterAddress} (PostgreSQL)`, { ...process.env, TEMPORAL_ADDRESS: clusterAddress }],
];

const suite = join(root, 'suite');
writeSuite(suite);
const rows: string[][] = [];
try {
  for (const [name, env] of targets) {
    await compare(suite, env, 0); // warm-up: the helper compiled, the queue's first run
    for (const latency of [0, 200]) {
      const run = await compare(suite, env, latency);
      const limit = (n * latency) / c / 1000;
      rows.push([
        name,
        `${n}/${latency}/${c}`,
        run.seconds.toFixed(1),
        run.span.toFixed(1),
        (n / run.span).toFixed(0),
        limit > 0 ? `${(run.span / limit).toFixed(2)}×` : '-',
        String(run.calls),
      ]);
      console.error(`${name} ${n}/${latency}/${c}: ${run.seconds.toFixed(1)} s`);
    }
  }
} finally {
  spawn(process.execPath, [bin, 'server', 'stop'], { env: targets[0]![1], stdio: 'ignore' });
}
const head = ['server', 'N/L/C', 'wall s', 'run s', 'cases/s', 'run/limit', 'calls'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
for (const line of [head, ...rows]) console.log(line.map((cell, i) => cell.padStart(widths[i]!)).join('  '));
