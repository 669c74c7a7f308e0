// A durable run under fire. On an embedded Temporal server of its own (state dir and port under tmp/bench-chaos/), it
// plans a run of N cases with `start --no-worker`, serves it with one `worker --until RUN` at a time, SIGKILLs that
// worker every --kill-every seconds (a fresh one starts after --pause seconds) and, once, SIGKILLs the Temporal server
// and brings it back with `server start` on the same db. The suite's fake provider takes --latency ms per call and
// appends a start and an end line per call to tmp/bench-chaos/calls.jsonl (appendFileSync: a killed process loses
// nothing). When the run is done it reads that file and `report RUN --format json` and prints, per interruption, the
// calls in flight, those finished in the second before, the calls repeated because of it and how long calls stopped;
// then the cases lost (must be 0), the cases called more than once and the totals.
// Exit 0 when the run completed with no case lost, 1 when not, 2 when the bench itself failed or timed out.
// The parts: options.ts (the command line, paths), suite.ts (the recording suite), processes.ts (children and faults),
// recording.ts (the calls as recorded), audit.ts (the report); this file is the scenario.
// Usage: node --import tsx bench/chaos.ts [cases=2000] [-p 16] [--latency 200] [--datasets 1] [--kill-every 20]
//          [--pause 0] [--server-kill-after 1] [--server-down 0] [--timeout 900]
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { printResults, type Interruption, type RunReport } from './chaos/audit.ts';
import {
  began,
  logDir,
  note,
  parseChaosOptions,
  root,
  since,
  stateDir,
  suiteDir,
  type ChaosOptions,
} from './chaos/options.ts';
import { ChaosProcesses, fail, freePort, isOurServer, serverPid, tail } from './chaos/processes.ts';
import { Recording } from './chaos/recording.ts';
import { writeChaosSuite } from './chaos/suite.ts';

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: killing the worker and stopping the server this bench started\n`);
    process.exit(130);
  });
}

/** The scenario: plan the run, serve it under fire until it completes, then audit it. */
async function main(options: ChaosOptions): Promise<number> {
  // A server left by an earlier bench that was killed too hard to clean up goes first.
  note(`writing a suite of ${options.cases} cases in ${suiteDir}`);
  const stale = serverPid();
  if (isOurServer(stale)) process.kill(stale, 'SIGKILL');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NO_COLOR: '1',
    TEMPORAL_ADDRESS: '',
    LLM_EVALS_STATE_DIR: stateDir,
    LLM_EVALS_TEMPORAL_PORT: process.env.LLM_EVALS_TEMPORAL_PORT || String(await freePort()),
    LLM_EVALS_TASK_QUEUE: `bench-chaos-${randomUUID().slice(0, 8)}`,
  };
  delete env.FORCE_COLOR;
  delete env.LLM_EVALS_HELPER;
  const lab = new ChaosProcesses(env);
  process.on('exit', () => lab.cleanup());
  writeChaosSuite(options);
  note(
    `${options.cases} cases in ${options.datasets} experiment(s), -p ${options.parallelism}, ${options.latencyMs} ms per call; ` +
      `worker SIGKILLed every ${options.killEveryMs / 1000} s, the server once after ${options.serverKillAfter} worker kill(s)`,
  );

  lab.serverMayRun = true;
  const server = await lab.cli(['server', 'start']);
  if (server.code !== 0) fail(`server start exited ${server.code}:\n${server.stderr}`);
  note(`server ${server.stdout.trim()}`);
  const startedAt = Date.now();
  const start = await lab.cli([
    'start',
    '--no-worker',
    '--no-cache',
    '-p',
    String(options.parallelism),
    '-j',
    String(options.datasets),
  ]);
  if (start.code !== 0) fail(`start exited ${start.code}:\n${start.stderr}`);
  const runId = start.stdout.trim().split('\n').pop()!;
  note(`run ${runId} planned (${((Date.now() - startedAt) / 1000).toFixed(1)} s)`);

  const recording = new Recording();
  const interruptions: Interruption[] = [];
  const anomalies: string[] = [];
  let workerKills = 0;
  let serverKilled = false;
  let serverBackAt = 0;
  let worker = lab.spawnWorker(runId);
  let lastProgress = Date.now();
  const deadline = began + options.timeoutMs;

  for (;;) {
    await sleep(100);
    recording.poll();
    const now = Date.now();
    if (now > deadline) {
      fail(
        `timed out after ${options.timeoutMs / 1000} s: run ${runId} not complete; ${recording.distinct()} of ${options.cases} ` +
          `cases called (${recording.calls.length} calls), worker #${worker.index} (pid ${worker.pid}) ` +
          `${worker.exited ? 'gone' : 'running'}`,
      );
    }
    if (worker.exited) {
      // It left on its own: the run closed, or something went wrong.
      const { code, signal } = worker.exited;
      recording.poll();
      recording.cut(worker.pid, worker.exited.at);
      const status = await lab.cli(['status', runId, '--json']);
      const state = (() => {
        try {
          return (JSON.parse(status.stdout) as { state: string }).state;
        } catch {
          return `unknown (status exited ${status.code}: ${status.stderr.trim().split('\n').at(-1)})`;
        }
      })();
      if (code === 0 && state === 'completed') {
        note(`worker #${worker.index} left: run ${runId} completed`);
        break;
      }
      const what = `worker #${worker.index} (pid ${worker.pid}) exited by itself at ${since(worker.exited.at)} s (code ${code}, signal ${signal}) while the run was ${state}`;
      anomalies.push(what);
      note(`${what}; log tail:\n${tail(worker.log)}`);
      if (anomalies.length > 5) fail(`too many workers left by themselves; the last: ${what}`);
      worker = lab.spawnWorker(runId);
      continue;
    }
    // Every --kill-every seconds, but never sooner than half that after the server came back, so that each
    // interruption's repeats and recovery are its own.
    if (now >= Math.max(worker.spawnedAt + options.killEveryMs, serverBackAt + options.killEveryMs / 2)) {
      const old = worker;
      await lab.killWorker(old);
      workerKills++;
      recording.poll();
      const cut = recording.cut(old.pid, old.killedAt!);
      note(`SIGKILL worker #${old.index} (pid ${old.pid}): ${cut} call(s) in flight`);
      if (options.pauseMs) await sleep(options.pauseMs);
      worker = lab.spawnWorker(runId);
      interruptions.push({ what: `worker #${old.index}`, at: old.killedAt!, backAt: worker.spawnedAt });
      continue;
    }
    // Once, after --server-kill-after worker kills, when the current worker has been calling for a second.
    if (
      !serverKilled &&
      workerKills >= options.serverKillAfter &&
      recording.firstStartOf(worker.pid) <= now - 1000 &&
      recording.lastStart() >= now - 300
    ) {
      serverKilled = true;
      const { at, backAt, said } = await lab.killServer(options.serverDownMs, (pid) =>
        note(`SIGKILL server (pid ${pid}): ${recording.inFlight()} call(s) in flight`),
      );
      serverBackAt = backAt;
      note(`server ${said} after ${((serverBackAt - at) / 1000).toFixed(1)} s`);
      interruptions.push({ what: 'server', at, backAt: serverBackAt });
      continue;
    }
    if (now - lastProgress >= 5000) {
      lastProgress = now;
      note(
        `${recording.distinct()}/${options.cases} cases called (${recording.calls.length} calls), ` +
          `${recording.inFlight()} in flight; worker #${worker.index} up ${((now - worker.spawnedAt) / 1000).toFixed(1)} s`,
      );
    }
  }
  const finishedAt = Date.now();
  await sleep(200);
  recording.poll();
  if (!serverKilled) anomalies.push('the server was never killed: the run finished first');

  // To a file: a JSON report of this size piped to stdout comes out cut at a multiple of 64 KiB.
  const reportFile = join(root, 'report.json');
  const reported = await lab.cli(['report', runId, '--format', 'json', '-o', reportFile], 300_000);
  if (reported.code !== 0) fail(`report ${runId} exited ${reported.code}:\n${reported.stderr}`);
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as RunReport;
  const stopped = await lab.cli(['server', 'stop']);
  if (stopped.code === 0) lab.serverMayRun = false;

  return printResults(
    options,
    lab.workers,
    runId,
    report,
    recording,
    interruptions,
    anomalies,
    startedAt,
    finishedAt,
  );
}

main(parseChaosOptions(process.argv.slice(2))).then(
  (code) => process.exit(code),
  (error: unknown) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)),
);
