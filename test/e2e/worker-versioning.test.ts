import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { runCli, runCliLong, startCli } from '../helpers/cli.ts';
import { recordFileIn, waitForCalls, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { statusOf, waitForState } from '../helpers/run-reads.ts';
import { warmCache } from '../helpers/fault-server.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// Fleet upgrades with Worker Versioning (on by default): a run stays on the build that started it. Build b1 starts
// run A and serves it; mid-run, build b2's worker comes up and b2 starts run B. Each worker records its calls in a
// file of its own: b2 never calls a case of A, b1 none of B. With b1 stopped, A waits rather than move to b2, and
// `status` and a `resume` from b2 say so; b1's workers gone, a new b2 worker takes over as the current version; b1
// back, A finishes. On the shared server, or the cluster.

const { dirs, spawned: started } = cliFixtures();

interface Pinned {
  build?: { deploymentName: string; buildId: string; polling: number };
}

describe('runs pinned to their build through a fleet upgrade (Worker Versioning)', () => {
  it('a new build never serves an old build’s run, and the old run waits for its own build', async () => {
    const dir = dirs.inRepo('versioning-');
    const suite = writeRecordingSuite(dir, 10);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `versioning-${randomUUID()}`,
      // The workflow bundle built once for the test run: a worker that built its own took over a minute when loaded.
      XDG_CACHE_HOME: await warmCache(),
      RECORDING_API_KEY: 'test-key',
    };
    // b1's calls are slow, so run A is still running once b2 is up and run B done; b2's are quick.
    const b1 = {
      ...env,
      LLM_EVALS_BUILD_ID: 'b1',
      RECORD_FILE: recordFileIn(dir, 'b1'),
      CALL_DELAY_MS: '1000',
    };
    const b2 = {
      ...env,
      LLM_EVALS_BUILD_ID: 'b2',
      RECORD_FILE: recordFileIn(dir, 'b2'),
      CALL_DELAY_MS: '50',
    };
    const startRun = async (buildEnv: NodeJS.ProcessEnv) => {
      const start = await runCli(['start', '--no-worker', '-p', '1', '-j', '1'], { cwd: dir, env: buildEnv });
      expect(start.code, start.stderr).toBe(0);
      return start.stdout.trim();
    };
    const worker = (buildEnv: NodeJS.ProcessEnv) => {
      const cli = startCli(['worker'], { cwd: dir, env: buildEnv, timeoutMs: 200_000 });
      started.push(cli);
      return cli;
    };

    // Build b1's worker comes first (a run is pinned to a build Temporal has seen poll), and becomes current.
    const first = worker(b1);
    const said = await first.waitFor(/build (\S+) build b1, (.*)\n/, 60_000);
    expect(said[2]).toContain('the current version');
    const runA = await startRun(b1);
    await waitForCalls(b1.RECORD_FILE, 3, first.done);

    // The upgrade: b2's worker polls beside b1's, and runs started from b2's checkout are b2's.
    const second = worker(b2);
    const secondSaid = await second.waitFor(/build \S+ build b2, (.*)\n/, 60_000);
    expect(secondSaid[1]).toContain('not the current version (b1)');
    expect((await second.waitFor(/runs pinned to this build: (.*)\n/))[1]).toContain('none running now');
    const runB = await startRun(b2);
    const pinnedA = (await statusOf(dir, env, runA)) as Pinned;
    expect(pinnedA.build).toMatchObject({ buildId: 'b1', polling: 1 });

    // b1 drained of workers mid-run: A waits for its build, B goes on on b2.
    first.child.kill('SIGTERM');
    expect((await first.done).code).toBe(0);
    await waitForState(dir, env, runB, 'completed');
    const stalled = await statusOf(dir, env, runA);
    expect(stalled.state).toBe('running');
    // Once b1's last poll is older than a live worker's can be (90 s), `status` says no worker of b1 polls.
    const deadline = Date.now() + 150_000;
    let waiting = await runCli(['status', runA], { cwd: dir, env });
    while (!/no worker of that build polls/.test(waiting.stdout) && Date.now() < deadline) {
      await sleep(5000);
      waiting = await runCli(['status', runA], { cwd: dir, env });
    }
    const noWorker = /pinned to versioning-\S+ build b1, no worker of that build polls .*\n/.exec(
      waiting.stdout,
    );
    expect(noWorker, waiting.stdout).not.toBeNull();
    // b2 polls the same queue all along, and takes none of A's cases.
    expect((await statusOf(dir, env, runA)).done).toBe(stalled.done);
    // `resume` from b2's checkout says it in the same words, and what to do, rather than wait in silence.
    const resumed = startCli(['resume', runA], { cwd: dir, env: b2, timeoutMs: 90_000 });
    started.push(resumed);
    await resumed.waitFor(/pinned to versioning-\S+ build b1, .*\n/, 45_000);
    expect(resumed.output().stderr).toContain(noWorker![0]);
    resumed.child.kill('SIGINT');
    await resumed.done;
    expect((await statusOf(dir, env, runA)).done).toBe(stalled.done);
    // A current build none of whose workers polls gives way: the next worker of b2 makes b2 the current version.
    const third = worker(b2);
    expect((await third.waitFor(/build \S+ build b2, (.*)\n/, 60_000))[1]).toContain('the current version');

    // b1 back: A, pinned to it, finishes on it.
    const again = worker(b1);
    await waitForState(dir, env, runA, 'completed');
    for (const cli of [second, third, again]) cli.child.kill('SIGTERM');
    await Promise.all([second.done, third.done, again.done]);

    // Each build called each case of its own run once, and none of the other's.
    for (const record of [b1.RECORD_FILE, b2.RECORD_FILE]) {
      const counts = suite.countCalls(record);
      expect(counts.size).toBe(suite.calls.length);
      expect(
        [...counts.values()].every((n) => n === 1),
        JSON.stringify([...counts]),
      ).toBe(true);
    }
  }, 400_000);

  it('LLM_EVALS_WORKER_VERSIONING=0: the worker polls unversioned, and the run it serves is pinned to no build', async () => {
    const dir = dirs.inRepo('unversioned-');
    writeRecordingSuite(dir, 4);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `unversioned-${randomUUID()}`,
      LLM_EVALS_WORKER_VERSIONING: '0',
      XDG_CACHE_HOME: await warmCache(),
      RECORDING_API_KEY: 'test-key',
      RECORD_FILE: recordFileIn(dir),
      CALL_DELAY_MS: '10',
    };
    const start = await runCli(['start', '--no-worker'], { cwd: dir, env });
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();
    const served = await runCliLong(['worker', '--until', runId], { cwd: dir, env, timeoutMs: 120_000 });
    expect(served.code, served.stderr).toBe(0);
    expect(served.stderr).not.toMatch(/\bbuild\b/);
    const status = await statusOf(dir, env, runId);
    expect(status).toMatchObject({ state: 'completed', done: 8, total: 8 });
    expect((status as Pinned).build).toBeUndefined();
  }, 150_000);
});
