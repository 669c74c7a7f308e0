import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { auditCalls, waitForCalls } from '../helpers/recording-suite.ts';
import { reportOf } from '../helpers/run-reads.ts';
import { IN_FLIGHT, killServer, OwnServerProjects, startRun } from '../helpers/durable.ts';

// Honest numbers: `worker --until RUN` took a Temporal server gone for good as the run's close and left with the run
// half done. It must leave only once the run has closed, and serve it on once the server is back.

const CASES = 40;
/** Longer than the client's own retries of one call (about 20 s), so the worker sees the server gone, not a hiccup. */
const OUTAGE_MS = 25_000;
const projects = new OwnServerProjects();
afterAll(() => projects.cleanUp());

describe('the Temporal server gone while `worker --until RUN` serves the run', () => {
  it('keeps serving, says the server is lost, and leaves only once the run has closed', async ({
    expect,
  }) => {
    const { dir, suite, record, env } = await projects.project('worker-outage', {
      cases: CASES,
      env: { CALL_DELAY_MS: '1000' },
    });
    const runId = await startRun(dir, env);

    const worker = projects.start(['worker', '--until', runId], { dir, env }, 240_000);
    await waitForCalls(record, Math.ceil(0.25 * suite.calls.length), worker.done);
    killServer(dir);
    const killedAt = Date.now();
    await worker.waitFor(/lost Temporal at 127\.0\.0\.1:\d+ \(/, 30_000);
    await sleep(OUTAGE_MS - (Date.now() - killedAt));
    expect(worker.child.exitCode, worker.output().stderr).toBeNull();
    const back = await runCli(['server', 'start'], { cwd: dir, env });
    expect(back.code, back.stderr).toBe(0);

    const end = await worker.done;
    expect(end.code, end.stderr).toBe(0);
    expect(end.stderr).toMatch(/Temporal at 127\.0\.0\.1:\d+ answers again/);
    expect(end.stderr).toContain('worker stopped');
    const { report } = await reportOf(dir, env, runId);
    expect(report.status).toBe('completed');
    // Every case of every experiment has exactly one result.
    const done = report.results.map((r) => `${r.experimentId} ${r.caseKey}`);
    expect(done).toHaveLength(suite.calls.length);
    expect(new Set(done).size).toBe(suite.calls.length);
    const audit = auditCalls(suite, record);
    expect(audit.missing).toEqual([]);
    // Made again: the calls in flight when the server went, those started before the pools saw their reports go
    // unanswered, and what the silent pools finished but could not report before the restarted server timed them out.
    expect(audit.extra).toBeLessThanOrEqual(3 * IN_FLIGHT);
  }, 240_000);
});
