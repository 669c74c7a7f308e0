import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, it } from 'vitest';
import { waitForCalls } from '../helpers/recording-suite.ts';
import { once, reportOf } from '../helpers/run-reads.ts';
import { expectResumed, OwnServerProjects, startRun, uninterruptedCompare } from '../helpers/durable.ts';
import { cluster } from './cluster.ts';

// D3 on a production-shaped Temporal (dev/cluster.sh): the server process (frontend, history, matching and worker
// services) SIGKILLed and started again, and its PostgreSQL restarted, while a worker serves a run. The run finishes
// on the same database, repeating at most the calls in flight. One at a time: they share the one cluster.

const projects = new OwnServerProjects();
afterAll(() => projects.cleanUp());

/** An uninterrupted compare on the cluster: what every interrupted run must end with. */
const baseline = once(async () => {
  const { dir, env } = await projects.project('cluster-baseline');
  return uninterruptedCompare(dir, env);
});

const outages: [string, () => Promise<void>][] = [
  [
    'the server SIGKILLed, then `dev/cluster.sh up`',
    async () => {
      await cluster('kill-server');
      await cluster('up');
    },
  ],
  [
    'the server SIGKILLed and kept down 8 s (past the pools’ heartbeat timeout)',
    async () => {
      await cluster('kill-server');
      await sleep(8000);
      await cluster('up');
    },
  ],
  ['PostgreSQL restarted under the running server', () => cluster('restart-pg').then(() => undefined)],
];

describe('the cluster interrupted mid-run (D3)', () => {
  it.for(outages)(
    '%s: the run finishes, repeating at most the calls in flight',
    { timeout: 240_000 },
    async ([name, outage], { expect, annotate }) => {
      const { dir, suite, record, env } = await projects.project(`cluster-${name.split(' ')[1]}`);
      const expected = await baseline();
      const runId = await startRun(dir, env);
      const worker = projects.start(['worker', '--until', runId], { dir, env }, 200_000);
      const interruptedAfter = await waitForCalls(record, Math.ceil(0.5 * suite.calls.length), worker.done);
      const interruptedAt = Date.now();
      await outage();
      const served = await worker.done;
      expect(served.code, served.stderr).toBe(0);
      const finishedAt = Date.now();
      const { report } = await reportOf(dir, env, runId);
      await expectResumed({ expect, annotate }, suite, record, {
        interruptedAfter,
        interruptedAt,
        finishedAt,
        report,
        baseline: expected,
      });
    },
  );
});
