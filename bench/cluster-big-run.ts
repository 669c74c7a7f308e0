// A big run on the production-shaped cluster (dev/cluster.sh), served by three worker processes as three machines
// would (each its own state folder), with Worker Versioning on: the run is pinned to build b1. Mid-run one b1 worker
// is SIGKILLed and another is "upgraded": stopped (SIGTERM, its calls in flight reported) and started again as build
// b2, which serves none of the b1 run. The run must still hold every case once (a SIGKILL may repeat the calls in
// flight). Prints the run's throughput, each worker's share of the calls, and the largest workflow history.
// Usage: nice node --import tsx bench/cluster-big-run.ts [cases=20000] [contenders=2] [parallelism=8] [concurrency=4]
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { numberedCase, largestHistory, recordedFakeHelper, writeBenchSuite } from './toy-cli.ts';

const [cases = 20_000, contenders = 2, parallelism = 8, concurrency = 4] = process.argv.slice(2).map(Number);
const repo = resolve(import.meta.dirname, '..');
const dir = join(repo, 'tmp', 'bench-cluster-big-run');
const bin = join(repo, 'bin', 'llm-evals.mjs');
const record = join(dir, 'calls.log');
const models = Array.from({ length: contenders }, (_, i) => `echo${i + 1}`);
const address = execFileSync(join(repo, 'dev', 'cluster.sh'), ['up'], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .at(-1)!;

rmSync(dir, { recursive: true, force: true });
// Each call appends `pid model case`: a case paid twice shows, and which worker paid it.
writeBenchSuite(
  dir,
  {
    helper: recordedFakeHelper('cluster-big', models, record, true),
    lineup: `request_types: [prompt]\nresults: { display: none }\nfake: { models: [${models.join(', ')}] }\n`,
  },
  cases,
  (i) => numberedCase(i, `d${i % 4}`, 7),
);

const env = (machine: string, build: string): NodeJS.ProcessEnv => ({
  ...process.env,
  NO_COLOR: '1',
  TEMPORAL_ADDRESS: address,
  LLM_EVALS_TASK_QUEUE: `cluster-big-${Date.now()}`,
  LLM_EVALS_STATE_DIR: join(dir, machine, 'state'),
  LLM_EVALS_WORKER_VERSIONING: '1',
  LLM_EVALS_BUILD_ID: build,
});
const queue = env('x', 'b1').LLM_EVALS_TASK_QUEUE!;
const envOf = (machine: string, build: string) => ({ ...env(machine, build), LLM_EVALS_TASK_QUEUE: queue });
const paying = new Set(models.map((m) => `fake/${m}`));
const calls = () =>
  existsSync(record)
    ? readFileSync(record, 'utf8')
        .split('\n')
        .map((line) => line.split(' '))
        .filter(([, model]) => paying.has(model!))
    : [];
const untilCalls = async (n: number) => {
  while (calls().length < n) await sleep(500);
};
function worker(machine: string, build: string): { child: ChildProcess; said: () => string } {
  const child = spawn(process.execPath, [bin, 'worker'], {
    cwd: dir,
    env: envOf(machine, build),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  return { child, said: () => stderr };
}
const exited = (child: ChildProcess) =>
  new Promise<number | null>((done) =>
    child.exitCode !== null ? done(child.exitCode) : child.on('exit', done),
  );

console.log(
  `cases: ${cases} × ${contenders} contenders, -p ${parallelism} -j ${concurrency}, cluster ${address}`,
);
const workers = ['a', 'b', 'c'].map((m) => ({ machine: m, ...worker(m, 'b1') }));
while (!workers.every((w) => /build \S+ build b1/.test(w.said()))) await sleep(500);
const startedAt = Date.now();
const start = spawnSync(
  process.execPath,
  [bin, 'start', '--no-worker', '--no-cache', '-p', String(parallelism), '-j', String(concurrency)],
  { cwd: dir, env: envOf('a', 'b1'), encoding: 'utf8', maxBuffer: 1 << 28 },
);
if (start.status !== 0) throw new Error(`start failed:\n${start.stderr.slice(-3000)}`);
const runId = start.stdout.trim().split('\n').pop()!;
console.log(`start (plan + workflow start): ${((Date.now() - startedAt) / 1000).toFixed(1)} s, run ${runId}`);
const began = Date.now();
const total = cases * contenders;
await untilCalls(total / 3);
workers[1]!.child.kill('SIGKILL');
console.log(`worker b SIGKILLed at ${calls().length} calls`);
await untilCalls(total / 2);
workers[2]!.child.kill('SIGTERM');
await exited(workers[2]!.child);
const upgraded = worker('c', 'b2');
console.log(`worker c stopped at ${calls().length} calls and started again as build b2`);

const connection = await Connection.connect({ address });
const client = new Client({ connection });
for (;;) {
  const listing = [];
  for await (const w of client.workflow.list({
    query: `LlmEvalsRunId = "${runId}" AND WorkflowType = "compareRun"`,
  }))
    listing.push(w);
  if (listing.length && listing.every((w) => w.status.name !== 'RUNNING')) break;
  await sleep(1000);
}
const runSeconds = (Date.now() - began) / 1000;
const { events, bytes } = await largestHistory(client, runId);
await connection.close();
for (const w of [workers[0]!, upgraded]) w.child.kill('SIGTERM');

const made = calls();
const keys = made.map(([, model, key]) => `${model} ${key}`);
const byPid = new Map<string, number>();
for (const [pid] of made) byPid.set(pid!, (byPid.get(pid!) ?? 0) + 1);
const pidOf = (w: { child: ChildProcess }) => String(w.child.pid);
console.log(`run: ${runSeconds.toFixed(1)} s, ${(total / runSeconds).toFixed(0)} cases/s`);
console.log(
  `calls by worker: a ${byPid.get(pidOf(workers[0]!)) ?? 0}, b (SIGKILLed) ${byPid.get(pidOf(workers[1]!)) ?? 0}, ` +
    `c ${byPid.get(pidOf(workers[2]!)) ?? 0}, c as b2 ${byPid.get(pidOf(upgraded)) ?? 0}`,
);
console.log(`largest workflow history: ${events} events, ${(bytes / 1048576).toFixed(2)} MB`);
const status = spawnSync(process.execPath, [bin, 'status', runId, '--json'], {
  cwd: dir,
  env: envOf('a', 'b1'),
  encoding: 'utf8',
});
const { state, done } = JSON.parse(status.stdout) as { state: string; done: number };
console.log(`status: ${state}, ${done} of ${total} cases done`);
console.log(
  `cases called: ${new Set(keys).size} of ${total}; calls ${made.length}, repeated ${made.length - new Set(keys).size}`,
);
