import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import {
  auditCalls,
  RECORDING_MODELS,
  recordFileIn,
  waitForCalls,
  writeRecordingSuite,
} from '../helpers/recording-suite.ts';
import { once, outcomes, reportOf } from '../helpers/run-reads.ts';
import {
  CASES,
  expectResumed,
  killServer,
  OwnServerProjects,
  serverOf,
  startRun,
  uninterruptedCompare,
} from '../helpers/durable.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// D3, a restarted Temporal server: the project's embedded dev server is SIGKILLed while a worker serves the run, then
// `server start` brings it back on the same SQLite file and the run finishes. Each scenario has its own project and
// server, so they run at once.

const dirs = new TempDirs();
const projects = new OwnServerProjects();
afterAll(async () => {
  await projects.cleanUp();
  dirs.removeAll();
});

/** SIGKILLs the project's server, keeps it down 8 s (past the activities' 5 s heartbeat timeout), then starts it. */
async function keptDown(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  killServer(dir);
  await sleep(8000);
  const restarted = await runCli(['server', 'start'], { cwd: dir, env });
  if (restarted.code !== 0) throw new Error(`server start exited ${restarted.code}:\n${restarted.stderr}`);
}

/** An uninterrupted compare of the same suite (on the shared test server): what every resumed run must end with. */
const baseline = once(() => {
  const dir = dirs.inRepo('server-kill-baseline-');
  writeRecordingSuite(dir, CASES);
  const env = {
    TEMPORAL_ADDRESS: temporalAddress(),
    LLM_EVALS_TASK_QUEUE: `durable-server-${randomUUID()}`,
    RECORD_FILE: recordFileIn(dir),
    RECORDING_API_KEY: 'test-key',
    CALL_DELAY_MS: '20',
  };
  return uninterruptedCompare(dir, env);
});

describe('the Temporal server SIGKILLed mid-run, then `server start` (D3)', () => {
  it.concurrent.for([0.1, 0.5, 0.9])(
    'after %s of the calls: the run finishes on the same db, repeating at most the calls in flight',
    { timeout: 240_000 },
    async (fraction, { expect, annotate }) => {
      const { dir, suite, record, env } = await projects.project(`server-kill-${fraction}`);
      const expected = baseline();
      const runId = await startRun(dir, env);
      const worker = projects.start(['worker', '--until', runId], { dir, env });
      const interruptedAfter = await waitForCalls(
        record,
        Math.ceil(fraction * suite.calls.length),
        worker.done,
      );
      const interruptedAt = Date.now();
      const server = killServer(dir);

      const restarted = await runCli(['server', 'start'], { cwd: dir, env });
      expect(restarted.code, restarted.stderr).toBe(0);
      expect(restarted.stdout).toMatch(/^started: /);
      const now = serverOf(dir);
      expect(now.pid).not.toBe(server.pid);
      expect(now.dbFile).toBe(server.dbFile);

      const served = await worker.done;
      expect(served.code, served.stderr).toBe(0);
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

describe('the Temporal server SIGKILLed and kept down past the pools’ heartbeat timeout (D3)', () => {
  it(
    'the worker that never stopped reports what it finished, and its pools’ next attempts pay for no case again',
    {
      timeout: 240_000,
    },
    async ({ expect }) => {
      // Back after 8 s, the server has timed out the pools that could not heartbeat and starts their next attempts on
      // the same worker, whose first attempts still hold the calls they finished while it was away. Each next attempt
      // waits for the one before to report them, so no case is paid again, not even the calls that were in flight.
      const { dir, suite, record, env } = await projects.project('server-kill-long');
      const expected = baseline();
      const runId = await startRun(dir, env);
      const worker = projects.start(['worker', '--until', runId], { dir, env });
      await waitForCalls(record, Math.ceil(0.3 * suite.calls.length), worker.done);
      await keptDown(dir, env);
      const served = await worker.done;
      expect(served.code, served.stderr).toBe(0);
      const { report } = await reportOf(dir, env, runId);
      const audit = auditCalls(suite, record);
      expect(audit.missing).toEqual([]);
      expect(audit.repeated, JSON.stringify(audit, null, 1)).toEqual([]);
      expect(outcomes(report)).toEqual(outcomes(await expected));
    },
  );
});

describe('the Temporal server SIGKILLed and kept down while a retried case calls (D3)', () => {
  // One case answers 503 first; its retry runs as an activity of its own, whose call takes RETRY_CALL_MS. The server
  // is killed as that call starts and kept down 8 s, past the retry's heartbeat timeout: back, it gives the attempt
  // up and starts the next one on the same worker. With a call of 20 s, the next attempt comes while the first still
  // calls; with one of 3 s, the first finished while the server was away and reports once it is back.
  const RETRIED = `${RECORDING_MODELS[0]} north/clear/001`;
  it.concurrent.for([20_000, 3000])(
    'with a retry call of %s ms: the case is called twice in all (the 503 and its retry), every other once',
    { timeout: 240_000 },
    async (retryMs, { expect }) => {
      const { dir, suite, record, env } = await projects.project(`server-kill-retry-${retryMs}`, {
        env: { FAIL_ONCE: RETRIED, RETRY_CALL_MS: String(retryMs) },
      });
      const runId = await startRun(dir, env);
      const worker = projects.start(['worker', '--until', runId], { dir, env });
      while ((suite.countCalls(record).get(RETRIED) ?? 0) < 2) {
        if (worker.child.exitCode !== null)
          throw new Error(`the worker exited:\n${(await worker.done).stderr}`);
        await sleep(10);
      }
      await keptDown(dir, env);
      const served = await worker.done;
      expect(served.code, served.stderr).toBe(0);
      const audit = auditCalls(suite, record);
      expect(audit.missing).toEqual([]);
      expect(audit.repeated.map((r) => [r.call, r.times.length])).toEqual([[RETRIED, 2]]);
      const { report } = await reportOf(dir, env, runId);
      expect(report.results).toHaveLength(suite.calls.length);
      // Its retry's result, reported by update while the attempt that made the call was given up, is the one kept.
      expect(outcomes(report)['rec:rec/alpha effort=default north/clear/001']).toBe('scored 1');
    },
  );
});
