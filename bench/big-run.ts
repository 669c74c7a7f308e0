// Measures a big run end to end on the embedded server (one of its own, state under tmp/bench-big-run, never the
// user's): loading the suite (`cases`), `start --no-worker` (plan + workflow start), one `worker` serving the run,
// `status` while it runs and once it closed, and `report` of every result. Prints wall time and peak memory (max RSS)
// of each process, cases per second, the largest workflow history (events and bytes) against Temporal's limits, and
// the calls made.
// With --kills, the worker gets a Ctrl-C (SIGINT) at a quarter of the calls, `resume RUN` takes over and is
// SIGKILLed at half, a fresh worker takes over and the server is SIGKILLed at three quarters and started again: the
// run must still hold every case once, and repeat at most the calls in flight at each SIGKILL.
// Usage: node --import tsx bench/big-run.ts [cases=20000] [contenders=2] [parallelism=8] [concurrency=4] [--kills]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { readSnapshot } from '../src/output/save.ts';
import { benchEnv, numberedCase, largestHistory, recordedFakeHelper, writeBenchSuite } from './toy-cli.ts';

const kills = process.argv.includes('--kills');
const [cases = 20_000, contenders = 2, parallelism = 8, concurrency = 4] = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map(Number);
const repo = resolve(import.meta.dirname, '..');
const dir = join(repo, 'tmp', 'bench-big-run');
const bin = join(repo, 'bin', 'llm-evals.mjs');
const record = join(dir, 'calls.log');
const datasets = 4;
const models = Array.from({ length: contenders }, (_, i) => `echo${i + 1}`);

rmSync(dir, { recursive: true, force: true });
// Each call appends `model case` to a file, so a case paid twice shows (recordedFakeHelper).
writeBenchSuite(
  dir,
  {
    helper: recordedFakeHelper('big', models, record),
    lineup: `request_types: [prompt]\nresults: { display: none }\nfake: { models: [${models.join(', ')}] }\n`,
  },
  cases,
  (i) => numberedCase(i, `d${i % datasets}`, 7),
);

const port = process.env.LLM_EVALS_TEMPORAL_PORT ?? '7533';
const env = benchEnv(dir, port);
const TIME = ['-f', 'maxrss_kb=%M'];
const rssOf = (stderr: string) => Number(/maxrss_kb=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1024;
const timed = (args: string[]) => {
  const started = Date.now();
  const run = spawnSync('/usr/bin/time', [...TIME, process.execPath, bin, ...args], {
    cwd: dir,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed:\n${run.stderr.slice(-3000)}`);
  return { seconds: (Date.now() - started) / 1000, rssMb: rssOf(run.stderr), stdout: run.stdout };
};
// The contenders' calls: the estimate before a run calls the adapter too, on a model of its own, and pays nothing.
const paying = new Set(models.map((m) => `fake/${m}`));
const calls = () =>
  existsSync(record)
    ? readFileSync(record, 'utf8')
        .split('\n')
        .filter((line) => paying.has(line.slice(0, line.indexOf(' '))))
    : [];
const serverPid = () =>
  (JSON.parse(readFileSync(join(dir, 'state', 'server.json'), 'utf8')) as { pid: number }).pid;
const serverPeakMb = () =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${serverPid()}/status`, 'utf8'))?.[1]) / 1024;
const lines: string[] = [];
let serverPeak = 0;

spawnSync(process.execPath, [bin, 'server', 'start'], { cwd: dir, env, stdio: 'inherit' });
// Each figure is printed as it is measured: a later step that fails leaves the earlier ones.
console.log(
  `cases: ${cases} × ${contenders} contenders (${datasets} datasets), -p ${parallelism} -j ${concurrency}${kills ? ', with kills' : ''}`,
);
const load = timed(['cases']);
console.log(`load the suite (cases): ${load.seconds.toFixed(1)} s, peak ${load.rssMb.toFixed(0)} MB`);
const start = timed([
  'start',
  '--no-worker',
  '--no-cache',
  '-p',
  String(parallelism),
  '-j',
  String(concurrency),
]);
const runId = start.stdout.trim().split('\n').pop()!;
console.log(
  `start (plan + workflow start): ${start.seconds.toFixed(1)} s, peak ${start.rssMb.toFixed(0)} MB`,
);
const total = cases * contenders;

/** A process serving the run (a worker until it closes, or `resume`), with its peak memory once it exits. */
function worker(args = ['worker', '--until', runId]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; rssMb: number }>;
} {
  const child = spawn('/usr/bin/time', [...TIME, process.execPath, bin, ...args], {
    cwd: dir,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const done = new Promise<{ code: number | null; rssMb: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, rssMb: rssOf(stderr) })),
  );
  return { child, done };
}
/** The /usr/bin/time wrapper's child: the worker's own node process, which a kill must hit. */
const nodeOf = (child: ChildProcess) =>
  Number(
    spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' })
      .stdout.trim()
      .split('\n')[0],
  );
const untilCalls = async (n: number) => {
  while (calls().length < n) await sleep(200);
};

const began = Date.now();
let workerPeak = 0;
/** Counts a serving process's peak in the run's worker peak and, with a kill run's line for it, names it there. */
const served = (rssMb: number, line?: string) => {
  workerPeak = Math.max(workerPeak, rssMb);
  if (line) lines.push(`${line}, peak ${rssMb.toFixed(0)} MB`);
};
let first = worker();
let status: { seconds: number; rssMb: number } | undefined;
if (kills) {
  await untilCalls(total / 4);
  const before = calls().length;
  process.kill(nodeOf(first.child), 'SIGINT');
  const interrupted = await first.done;
  served(
    interrupted.rssMb,
    `worker Ctrl-C (SIGINT) at ${before} calls: exit ${interrupted.code} at ${calls().length}`,
  );
  first = worker(['resume', runId]);
  await untilCalls(total / 2);
  process.kill(nodeOf(first.child), 'SIGKILL');
  served((await first.done).rssMb, `resume SIGKILLed at ${calls().length} calls`);
  first = worker();
  await untilCalls((3 * total) / 4);
  serverPeak = Math.max(serverPeak, serverPeakMb());
  process.kill(serverPid(), 'SIGKILL');
  lines.push(`server SIGKILLed at ${calls().length} calls`);
  await sleep(2000);
  spawnSync(process.execPath, [bin, 'server', 'start'], { cwd: dir, env, stdio: 'inherit' });
} else {
  await untilCalls(total / 2);
  status = timed(['status', runId]);
  console.log(`status mid-run: ${status.seconds.toFixed(1)} s, peak ${status.rssMb.toFixed(0)} MB`);
}
const last = await first.done;
served(last.rssMb, kills ? `the worker of the server's outage: exit ${last.code}` : undefined);
if (last.code !== 0 && kills) {
  // The worker of the outage may leave once the server is gone; a last one finishes the run.
  const again = await worker().done;
  served(again.rssMb, `a last worker: exit ${again.code}`);
}
const runSeconds = (Date.now() - began) / 1000;
console.log(
  `run: ${runSeconds.toFixed(1)} s, ${(total / runSeconds).toFixed(0)} cases/s, worker peak ${workerPeak.toFixed(0)} MB`,
);
const report = timed(['report', runId, '--format', 'json', '-o', 'report.json']);
console.log(`report (every result): ${report.seconds.toFixed(1)} s, peak ${report.rssMb.toFixed(0)} MB`);
const closed = timed(['status', runId]);
console.log(`status of the closed run: ${closed.seconds.toFixed(1)} s, peak ${closed.rssMb.toFixed(0)} MB`);
// Read as `render` reads it: a million results pass V8's longest string as one file.
const { results } = readSnapshot(join(dir, 'report.json'));
serverPeak = Math.max(serverPeak, serverPeakMb());

// The largest history of the run's workflows, against Temporal's warnings (10,240 events, 10 MB).
const connection = await Connection.connect({ address: `127.0.0.1:${port}` });
const client = new Client({ connection });
const { events, bytes } = await largestHistory(client, runId);
await connection.close();
spawnSync(process.execPath, [bin, 'server', 'stop', '--force'], { cwd: dir, env, stdio: 'inherit' });

const made = calls();
// A kill repeats the calls in flight then (at most -p per experiment running), never a case already recorded.
const repeated = made.length - new Set(made).size;
console.log(`largest workflow history: ${events} events, ${(bytes / 1048576).toFixed(1)} MB`);
console.log(`server: peak ${serverPeak.toFixed(0)} MB`);
for (const line of lines) console.log(line);
console.log(
  `results: ${results.length} of ${total}, distinct ${new Set(results.map((r) => r.caseKey + r.experimentId)).size}; calls: ${made.length}, repeated: ${repeated} (calls in flight at once: at most ${parallelism * concurrency})`,
);
