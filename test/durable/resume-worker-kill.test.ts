import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliLong, startCli, type CliProcess } from '../helpers/cli.ts';
import {
  recordFileIn,
  waitForCalls,
  writeRecordingSuite,
  type RecordingSuite,
} from '../helpers/recording-suite.ts';
import { once, outcomes, reportOf, waitForState, type RunReport } from '../helpers/run-reads.ts';
import {
  CASES,
  expectResumed,
  ownServerEnv,
  recordingEnv,
  startRun,
  startServer,
} from '../helpers/durable.ts';
import { TempDirs } from '../helpers/suite-dir.ts';

// D3, a killed worker: `start --no-worker`, a `worker` SIGKILLed mid-run, a fresh `worker` finishes the run; D6, two
// workers share one run. Every scenario runs in one suite on its project's embedded server, each on a task queue of
// its own, so they run at once. Temporal retries a dead worker's cases after the heartbeat timeout (5 s).

const dirs = new TempDirs();
const started: CliProcess[] = [];
let dir: string;
let suite: RecordingSuite;
let serverEnv: NodeJS.ProcessEnv;

/** The env of one scenario: its own task queue and record file on the project's server. */
function scenarioEnv(name: string) {
  const record = recordFileIn(dir, `${name}-${randomUUID().slice(0, 8)}`);
  const env = {
    ...serverEnv,
    ...recordingEnv(record, 'worker'),
  };
  return { record, env };
}

function spawned(cli: CliProcess): CliProcess {
  started.push(cli);
  return cli;
}

beforeAll(async () => {
  dir = dirs.inRepo('worker-kill-');
  suite = writeRecordingSuite(dir, CASES);
  serverEnv = await ownServerEnv(dir);
  await startServer(dir, serverEnv);
}, 60_000);

/** An uninterrupted run of the suite: what every resumed run must end with. */
const baseline = once(async (): Promise<RunReport> => {
  const { env } = scenarioEnv('baseline');
  const runId = await startRun(dir, env);
  const worker = await runCliLong(['worker', '--until', runId], { cwd: dir, env });
  if (worker.code !== 0) throw new Error(`the baseline worker exited ${worker.code}:\n${worker.stderr}`);
  return (await reportOf(dir, env, runId)).report;
});

afterAll(async () => {
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  if (dir) await runCli(['server', 'stop', '--force'], { cwd: dir, env: serverEnv });
  dirs.removeAll();
});

describe.concurrent('a worker SIGKILLed mid-run, then a fresh worker (D3)', () => {
  it.concurrent.for([0.1, 0.5, 0.9])(
    'after %s of the calls: the fresh worker finishes the run, repeating at most the calls in flight',
    { timeout: 240_000 },
    async (fraction, { expect, annotate }) => {
      const { record, env } = scenarioEnv(`kill-${fraction}`);
      const expected = baseline();
      const runId = await startRun(dir, env);
      const worker = spawned(startCli(['worker'], { cwd: dir, env }));
      const interruptedAfter = await waitForCalls(
        record,
        Math.ceil(fraction * suite.calls.length),
        worker.done,
      );
      const interruptedAt = Date.now();
      worker.child.kill('SIGKILL');
      expect((await worker.done).signal).toBe('SIGKILL');

      const fresh = await runCliLong(['worker', '--until', runId], { cwd: dir, env });
      expect(fresh.code, fresh.stderr).toBe(0);
      const finishedAt = Date.now();
      const { report } = await reportOf(dir, env, runId);
      await expectResumed({ expect, annotate }, suite, record, {
        interruptedAfter,
        interruptedAt,
        finishedAt,
        report,
        baseline: await expected,
      });
    },
  );
});

describe.concurrent('two workers on one run (D6)', () => {
  it('both serve it: the run completes with every case called once, by both pids', async () => {
    const { record, env } = scenarioEnv('two-workers');
    const expected = baseline();
    const slow = { ...env, CALL_DELAY_MS: '500' };
    // Each experiment's cases run in one pool activity, and Temporal hands each pool to whichever worker polls: at
    // --max-activities 1 a worker holding one pool leaves the next (-p 2 runs two at once) to the other.
    const workers = [0, 1].map(() =>
      spawned(startCli(['worker', '--max-activities', '1'], { cwd: dir, env: slow })),
    );
    await Promise.all(workers.map((w) => w.waitFor(/worker serving/)));
    const runId = await startRun(dir, slow);
    await waitForState(dir, slow, runId, 'completed');
    for (const worker of workers) worker.child.kill('SIGTERM');
    for (const end of await Promise.all(workers.map((w) => w.done))) expect(end.code, end.stderr).toBe(0);
    const pids = new Set(suite.read(record).map((c) => c.pid));
    expect(pids).toEqual(new Set(workers.map((w) => w.child.pid)));
    expect([...suite.countCalls(record).values()].every((n) => n === 1)).toBe(true);
    expect(suite.countCalls(record).size).toBe(suite.calls.length);
    const { report } = await reportOf(dir, slow, runId);
    expect(outcomes(report)).toEqual(outcomes(await expected));
  }, 240_000);
});
