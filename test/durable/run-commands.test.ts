import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runCliLong, startCli, type CliProcess } from '../helpers/cli.ts';
import { recordFileIn, waitForCalls, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { callsOf, outcomes, reportOf, statusOf, waitForState } from '../helpers/run-reads.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// D4 through the real CLI on the shared test server: start, status, report (partial while the run goes on), runs and
// cancel. Each test has its own suite folder and task queue.

const CASES = 12;
const dirs = new TempDirs();
const started: CliProcess[] = [];

afterAll(() => {
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  dirs.removeAll();
});

function scenario(name: string, delayMs = 300) {
  const dir = dirs.inRepo(`commands-${name}-`);
  const suite = writeRecordingSuite(dir, CASES);
  const record = recordFileIn(dir);
  const env = {
    TEMPORAL_ADDRESS: temporalAddress(),
    LLM_EVALS_TASK_QUEUE: `durable-commands-${randomUUID()}`,
    RECORD_FILE: record,
    RECORDING_API_KEY: 'test-key',
    CALL_DELAY_MS: String(delayMs),
  };
  const cli = (args: string[]) => runCli(args, { cwd: dir, env });
  const spawn = (args: string[]) => {
    const process = startCli(args, { cwd: dir, env });
    started.push(process);
    return process;
  };
  return { dir, suite, record, env, cli, spawn };
}

/** `runs --json`: the entry of one run. */
async function listed(
  cli: (args: string[]) => Promise<{ code: number | null; stdout: string }>,
  runId: string,
) {
  const { code, stdout } = await cli(['runs', '--json', '--limit', '1000']);
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { runId: string; suite: string; state: string }[]).find(
    (r) => r.runId === runId,
  );
}

describe.concurrent('status, report and runs of a run from start to finish (D4)', () => {
  it('without a worker, with one, after it died, and finished', async () => {
    // Calls slow enough that the run is still going while `status` and `report` (processes of their own) look.
    const { dir, suite, record, env, cli, spawn } = scenario('status', 800);
    const start = await cli(['start', '--no-worker', '-j', '1', '-p', '2']);
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();
    expect(runId).toMatch(/^\d{8}-\d{6}-\w+$/);
    expect(start.stderr).toContain('llm-evals worker');

    const idle = await cli(['status', runId]);
    expect(idle.code, idle.stderr).toBe(0);
    expect(idle.stdout).toContain(`run ${runId} (recording): running, 0/${suite.calls.length} cases`);
    expect(idle.stdout).toContain('no worker is serving it now');
    expect(await listed(cli, runId)).toMatchObject({
      suite: 'recording',
      state: 'running',
      done: 0,
      total: suite.calls.length,
      errors: 0,
      costUsd: null,
    });

    // A quarter in, three quarters (~7 s of calls) are left for `status`, a process of its own, to see the run going.
    const worker = spawn(['worker']);
    await waitForCalls(record, suite.calls.length / 4, worker.done);
    const live = await statusOf(dir, env, runId);
    expect(live).toMatchObject({ runId, state: 'running', total: suite.calls.length });
    expect(live.done).toBeLessThan(live.total);
    expect(live.experiments).toHaveLength(4);

    // Killed, the worker leaves the run as it was: a partial report has exactly what finished.
    worker.child.kill('SIGKILL');
    await worker.done;
    const partial = await reportOf(dir, env, runId);
    expect(partial.stderr).toMatch(
      new RegExp(
        `partial report: run ${runId} is partial; \\d+ of ${suite.calls.length} case results so far`,
      ),
    );
    expect(partial.report.status).toBe('partial');
    expect(partial.report.results.length).toBeGreaterThan(0);
    expect(partial.report.results.length).toBeLessThan(suite.calls.length);
    const called = suite.countCalls(record);
    for (const call of callsOf(partial.report)) expect(called.get(call), call).toBe(1);

    // Killed before the test's own timeout, so that a worker that does not leave shows what it printed.
    const finisher = await runCliLong(['worker', '--until', runId], { cwd: dir, env, timeoutMs: 180_000 });
    expect(finisher.code, finisher.stderr).toBe(0);
    expect(finisher.stderr).toContain(`run ${runId} has closed; stopping`);
    const done = await statusOf(dir, env, runId);
    expect(done).toMatchObject({
      runId,
      state: 'completed',
      done: suite.calls.length,
      total: suite.calls.length,
    });
    expect(done.experiments.every((e) => e.state === 'completed' && e.done === e.total)).toBe(true);
    const final = await reportOf(dir, env, runId);
    expect(final.stderr).not.toContain('partial');
    expect(final.report.status).toBe('completed');
    expect(outcomes(final.report)).toMatchObject(outcomes(partial.report));
    expect(await listed(cli, runId)).toMatchObject({
      state: 'completed',
      done: suite.calls.length,
      total: suite.calls.length,
      errors: final.report.results.filter((r) => r.status !== 'scored').length,
      costUsd: expect.any(Number) as number,
      duration: expect.any(Number) as number,
    });
    const table = await cli(['runs']);
    expect(table.stdout).toMatch(
      new RegExp(`│ ${runId} │ recording │ completed │ +${suite.calls.length}/${suite.calls.length} │`),
    );
  }, 240_000);
});

describe.concurrent('start with its background worker (D4)', () => {
  it('returns at once; the detached worker serves the run to the end, then leaves', async () => {
    const { dir, suite, record, env, cli } = scenario('background', 100);
    const begun = Date.now();
    const start = await cli(['start', '-p', '2', '-j', '2']);
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();
    expect(start.stderr).toContain(`llm-evals status ${runId} --watch`);
    const log = join(dir, 'log', `worker.${runId}.log`);
    expect(start.stderr).toContain(log);
    const status = await waitForState(dir, env, runId, 'completed');
    expect(status.done).toBe(suite.calls.length);
    expect([...suite.countCalls(record).values()]).toEqual(suite.calls.map(() => 1));
    // `worker --until RUN` leaves once the run has closed.
    for (let i = 0; i < 50 && !readFileSync(log, 'utf8').includes('worker stopped'); i++) await sleep(200);
    expect(existsSync(log) && readFileSync(log, 'utf8')).toContain('worker stopped');
    expect(Date.now() - begun).toBeLessThan(60_000);
  }, 240_000);
});

describe.concurrent('cancel (D4)', () => {
  it('cancels a run a worker serves: status shows cancelled and no new case starts', async () => {
    // Slow calls, so the run is still going when `cancel` (a process of its own) gets there.
    const { dir, suite, record, env, cli, spawn } = scenario('cancel', 2000);
    const start = await cli(['start', '--no-worker', '-p', '2', '-j', '2']);
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();
    const worker = spawn(['worker']);
    await waitForCalls(record, 4, worker.done);
    const cancel = await cli(['cancel', runId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain(`cancelled run ${runId}`);
    const status = await waitForState(dir, env, runId, 'cancelled', 30_000);
    expect(status.done).toBeLessThan(suite.calls.length);
    expect(await listed(cli, runId)).toMatchObject({ state: 'cancelled' });
    const settled = Date.now();
    await sleep(2500);
    expect(suite.read(record).filter((c) => c.t > settled)).toEqual([]);
    expect(suite.read(record).length).toBeLessThan(suite.calls.length);
    worker.child.kill('SIGTERM');
    await worker.done;
  }, 240_000);
});
