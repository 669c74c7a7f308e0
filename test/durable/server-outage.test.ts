import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, it } from 'vitest';
import { runCli, runCliLong } from '../helpers/cli.ts';
import { auditCalls, waitForCalls } from '../helpers/recording-suite.ts';
import { reportOf } from '../helpers/run-reads.ts';
import { IN_FLIGHT, killServer, OwnServerProjects, RUN_FLAGS, startServer } from '../helpers/durable.ts';

// Honest numbers, finding 5: the Temporal server gone for 20 s or more while `compare` serves its run in-process.
// The live view says so and waits, draws no progress it cannot see, and finishes the run when the server is back;
// Ctrl-C while it is gone stops within seconds and names the resume command, and `resume` finishes the run.

const CASES = 40;
const projects = new OwnServerProjects();
afterAll(() => projects.cleanUp());

/** A project of CASES one-second calls with its own server, up. */
const project = (name: string) =>
  projects.project(`outage-${name}`, { cases: CASES, env: { CALL_DELAY_MS: '1000' }, serverUp: true });

const UNREACHABLE =
  /Temporal server unreachable since \d\d:\d\d:\d\d; waiting \(Ctrl-C stops, `llm-evals resume (\S+)` continues later\)/;

describe.concurrent('the Temporal server gone while compare serves its run', () => {
  it('says so, waits 25 s for it, and finishes the run when it is back', async ({ expect }) => {
    const { dir, suite, record, env } = await project('wait');
    const compare = projects.start(['compare', ...RUN_FLAGS, '--no-open'], { dir, env }, 240_000);
    await waitForCalls(record, Math.ceil(0.25 * suite.calls.length), compare.done);
    killServer(dir);
    await compare.waitFor(UNREACHABLE, 30_000);
    await sleep(25_000);
    expect(compare.child.exitCode).toBeNull();
    const back = await runCli(['server', 'start'], { cwd: dir, env });
    expect(back.code, back.stderr).toBe(0);

    const end = await compare.done;
    expect(end.code, end.stderr).toBe(0);
    expect(end.stderr).toMatch(/Temporal server back after \d+ s; the run goes on/);
    const runId = /run (\S+) started/.exec(end.stderr)![1]!;
    const { report } = await reportOf(dir, env, runId);
    expect(report.results).toHaveLength(suite.calls.length);
    const audit = auditCalls(suite, record);
    expect(audit.missing).toEqual([]);
    // None made again: the pools went on holding what they finished while the server was away and reported it once it
    // was back; the restarted server timed them out, and each one's next attempt, on this same worker, waited for them.
    expect(audit.repeated, JSON.stringify(audit, null, 1)).toEqual([]);
  }, 240_000);

  it('gone 80 s, it goes on within seconds of the server coming back, not at the next of gRPC’s growing waits', async ({
    expect,
  }) => {
    const { dir, suite, record, env } = await project('long');
    const compare = projects.start(['compare', ...RUN_FLAGS, '--no-open'], { dir, env }, 300_000);
    await waitForCalls(record, Math.ceil(0.25 * suite.calls.length), compare.done);
    killServer(dir);
    await compare.waitFor(UNREACHABLE, 30_000);
    // Long enough for gRPC's default back-off (1 s growing by 1.6×) to wait over 30 s between tries.
    await sleep(80_000);
    const back = await runCli(['server', 'start'], { cwd: dir, env });
    expect(back.code, back.stderr).toBe(0);
    const returned = Date.now();
    await compare.waitFor(/Temporal server back after \d+ s; the run goes on/, 120_000);
    const took = (Date.now() - returned) / 1000;
    expect(took, `the run went on ${took.toFixed(1)} s after the server was back`).toBeLessThan(12);
    const end = await compare.done;
    expect(end.code, end.stderr).toBe(0);
    expect(auditCalls(suite, record).missing).toEqual([]);
  }, 300_000);

  it('Ctrl-C while it is gone stops within seconds, naming resume, which finishes the run', async ({
    expect,
  }) => {
    const { dir, suite, record, env } = await project('stop');
    const compare = projects.start(['compare', ...RUN_FLAGS, '--no-open'], { dir, env }, 240_000);
    await waitForCalls(record, Math.ceil(0.25 * suite.calls.length), compare.done);
    killServer(dir);
    const runId = (await compare.waitFor(UNREACHABLE, 30_000))[1]!;
    const stoppedAt = Date.now();
    compare.child.kill('SIGINT');
    const end = await compare.done;
    expect(end.code, end.stderr).toBe(130);
    expect((Date.now() - stoppedAt) / 1000).toBeLessThan(30);
    expect(end.stderr).toContain(`llm-evals resume ${runId}`);

    await startServer(dir, env);
    const resumed = await runCliLong(['resume', runId, '--no-open'], { cwd: dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const { report } = await reportOf(dir, env, runId);
    expect(report.results).toHaveLength(suite.calls.length);
    const audit = auditCalls(suite, record);
    expect(audit.missing).toEqual([]);
    // Made again: the calls in flight when the server went, and those started in the second before the pools saw
    // their reports go unanswered and stopped starting calls; none started in the seconds after.
    expect(audit.extra).toBeLessThanOrEqual(2 * IN_FLIGHT);
  }, 240_000);

  it('Ctrl-C before the view has noticed the server gone stops within the same bound, naming resume', async ({
    expect,
  }) => {
    const { dir, suite, record, env } = await project('unnoticed');
    const compare = projects.start(['compare', ...RUN_FLAGS, '--no-open'], { dir, env }, 240_000);
    const runId = (await compare.waitFor(/run (\S+) started/))[1]!;
    await waitForCalls(record, Math.ceil(0.25 * suite.calls.length), compare.done);
    killServer(dir);
    // At once: the view looks every quarter second and has not said the server is gone.
    const stoppedAt = Date.now();
    compare.child.kill('SIGINT');
    const end = await compare.done;
    expect(end.stderr).not.toMatch(UNREACHABLE);
    expect(end.code, end.stderr).toBe(130);
    expect((Date.now() - stoppedAt) / 1000).toBeLessThan(30);
    expect(end.stderr).toContain(`llm-evals resume ${runId}`);
  }, 240_000);

  it('a second Ctrl-C ends compare at once, naming resume', async ({ expect }) => {
    const { dir, suite, record, env } = await project('twice');
    const compare = projects.start(['compare', ...RUN_FLAGS, '--no-open'], { dir, env }, 240_000);
    const runId = (await compare.waitFor(/run (\S+) started/))[1]!;
    await waitForCalls(record, Math.ceil(0.25 * suite.calls.length), compare.done);
    killServer(dir);
    compare.child.kill('SIGINT');
    await sleep(300);
    const secondAt = Date.now();
    compare.child.kill('SIGINT');
    const end = await compare.done;
    expect(end.code, end.stderr).toBe(130);
    expect(Date.now() - secondAt).toBeLessThan(2000);
    expect(end.stderr).toContain(`llm-evals resume ${runId}`);
  }, 240_000);
});
