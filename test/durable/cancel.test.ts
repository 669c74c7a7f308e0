import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli.ts';
import {
  recordFileIn,
  waitForCalls,
  writeRecordingSuite,
  type RecordingSuite,
} from '../helpers/recording-suite.ts';
import { callsOf, reportOf, statusOf } from '../helpers/run-reads.ts';
import { ownServerEnv, recordingEnv, startRun, startServer } from '../helpers/durable.ts';
import { keepHistories, keptHistoriesDir } from '../helpers/keep-histories.ts';
import { TempDirs } from '../helpers/suite-dir.ts';

// Honest numbers, finding 6: `cancel RUN` returns once no call can start (a worker closed the run), or, with no
// worker, once Temporal ended it; afterwards status, runs, report and the snapshot say one word: cancelled.

const CASES = 40;
const dirs = new TempDirs();
const started: CliProcess[] = [];
let dir: string;
let suite: RecordingSuite;
let serverEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = dirs.inRepo('cancel-');
  suite = writeRecordingSuite(dir, CASES);
  serverEnv = await ownServerEnv(dir);
  await startServer(dir, serverEnv);
}, 60_000);

afterAll(async () => {
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  const keep = keptHistoriesDir();
  if (dir && keep) await keepHistories(`127.0.0.1:${serverEnv.LLM_EVALS_TEMPORAL_PORT}`, keep, 'cancel');
  if (dir) await runCli(['server', 'stop', '--force'], { cwd: dir, env: serverEnv });
  dirs.removeAll();
});

function scenarioEnv(name: string, extra: NodeJS.ProcessEnv = {}) {
  const record = recordFileIn(dir, `${name}-${randomUUID().slice(0, 8)}`);
  return { record, env: { ...serverEnv, ...recordingEnv(record, name), CALL_DELAY_MS: '500', ...extra } };
}

/** The state each command gives the run: status, runs, report and the snapshot's status. */
async function statesOf(env: NodeJS.ProcessEnv, runId: string) {
  const status = await statusOf(dir, env, runId);
  const runs = await runCli(['runs', '--json'], { cwd: dir, env });
  const listed = (JSON.parse(runs.stdout) as { runId: string; state: string }[]).find(
    (r) => r.runId === runId,
  );
  const { report } = await reportOf(dir, env, runId);
  return { status, runs: listed?.state, report };
}

describe.concurrent('cancel', () => {
  it('with a worker serving the run: no call starts after it returns, every call answered is recorded, and every view says cancelled', async ({
    expect,
  }) => {
    const { record, env } = scenarioEnv('cancel-served');
    const runId = await startRun(dir, env);
    const worker = startCli(['worker', '--until', runId], { cwd: dir, env });
    started.push(worker);
    await waitForCalls(record, Math.ceil(0.3 * suite.calls.length), worker.done);
    const cancel = await runCli(['cancel', runId], { cwd: dir, env });
    const returnedAt = Date.now();
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain(`run ${runId}: no call starts from now on`);
    await sleep(3000);
    const late = suite.read(record).filter((call) => call.t > returnedAt);
    expect(late, 'calls started after cancel returned').toEqual([]);
    expect(suite.read(record).length).toBeLessThan(suite.calls.length);

    const { status, runs, report } = await statesOf(env, runId);
    expect(status.state).toBe('cancelled');
    expect(status.experiments.filter((e) => e.done < e.total).map((e) => e.state)).not.toContain('running');
    expect(runs).toBe('cancelled');
    expect(report.status).toBe('cancelled');
    expect(report.results.filter((r) => r.status === 'error')).toEqual([]);
    // A reply paid for is kept (issue #28): the calls in flight when cancel came are answered and recorded, none lost.
    const answered = suite.answered(record);
    expect(answered.length).toBeGreaterThan(0);
    expect(callsOf(report).sort(), 'results against calls answered').toEqual([...answered].sort());
    worker.child.kill('SIGTERM');
  }, 180_000);

  it('during a retried call: its reply is recorded too', async ({ expect }) => {
    // The first call of this case answers 503; its retry, a runCase activity of its own, takes 5 s.
    const retried = `${suite.calls[0]}`;
    const { record, env } = scenarioEnv('cancel-retry', { FAIL_ONCE: retried, RETRY_CALL_MS: '5000' });
    const runId = await startRun(dir, env);
    const worker = startCli(['worker', '--until', runId], { cwd: dir, env });
    started.push(worker);
    const deadline = Date.now() + 60_000;
    while ((suite.countCalls(record).get(retried) ?? 0) < 2) {
      if (Date.now() > deadline) throw new Error(`no retry of ${retried} in 60 s`);
      await sleep(50);
    }
    const cancel = await runCli(['cancel', runId], { cwd: dir, env });
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain('no call starts from now on');
    await sleep(1000);
    const answered = suite.answered(record);
    expect(answered).toContain(retried);
    const { report } = await reportOf(dir, env, runId);
    expect(callsOf(report).sort(), 'results against calls answered').toEqual([...answered].sort());
    worker.child.kill('SIGTERM');
  }, 180_000);

  it('with no worker: the run closes at once, cancelled', async ({ expect }) => {
    const { env } = scenarioEnv('cancel-unserved');
    const runId = await startRun(dir, env);
    const asked = Date.now();
    const cancel = await runCli(['cancel', runId], { cwd: dir, env });
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain('no worker closed it');
    expect(cancel.stderr, 'no worker serves it: nothing is waited for').not.toContain('waiting for');
    // Before, cancel waited out its grace (15 s) for a worker that no one had started.
    expect((Date.now() - asked) / 1000).toBeLessThan(10);
    const { status, runs, report } = await statesOf(env, runId);
    expect(status.state).toBe('cancelled');
    expect(runs).toBe('cancelled');
    expect(report.status).toBe('cancelled');
  }, 120_000);
});
