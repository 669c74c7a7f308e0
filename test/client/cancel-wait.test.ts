import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { waitForCancelled } from '../../src/client/cancel-wait.ts';
import { Runs } from '../../src/client/runs.ts';
import { runWorkflowId, type RunInput } from '../../src/core/run-input.ts';
import { RUN_HEADER, testClient } from '../helpers/temporal.ts';

// cancel's wait on a real dev server, no worker: the run is closed before the wait looks at it, and the wait's own
// watch for the close (`closed`, a fake here) has not heard of it yet, as happened on a loaded machine.

const client = testClient();

function emptyRun(runId: string): RunInput {
  return {
    runId,
    suite: 'test',
    contenders: [],
    experiments: [],
    datasets: {},
    parallelism: 1,
    concurrency: 1,
    limits: {},
  };
}

describe('waitForCancelled', () => {
  it('ends a run no worker has polled for on its first look, not after the grace', async () => {
    const runId = `t-${randomUUID().slice(0, 8)}`;
    const runs = new Runs(client());
    // A task queue of its own, that no worker has ever polled: as a run started with --no-worker.
    await runs.start(`test-${randomUUID()}`, emptyRun(runId), RUN_HEADER);
    const asked = Date.now();
    const waited = await runs.cancelAndWait(runId);
    expect(waited).toEqual({ how: 'terminated' });
    // Before, the whole grace (CANCEL_GRACE_MS, 15 s); now the first look, at once.
    expect(Date.now() - asked).toBeLessThan(4000);
  }, 30_000);

  it('takes a run that a look finds closed for closed, never for a run to end', async () => {
    const runId = `t-${randomUUID().slice(0, 8)}`;
    const input = emptyRun(runId);
    const runs = new Runs(client());
    await runs.start(`test-${randomUUID()}`, input, RUN_HEADER);
    await client().workflow.getHandle(runWorkflowId(runId)).terminate('closed before the look');
    const ended: string[] = [];
    const waited = await waitForCancelled(
      {
        client: client(),
        // The long poll on the run's result that has not returned yet.
        closed: () => new Promise(() => undefined),
        endGate: async (id) => {
          ended.push(id);
          await runs.endGate(id);
        },
      },
      runId,
      // Asked long ago, past any grace: before, a look at a closed run, with nothing pending, ended it.
      Date.now() - 60_000,
      { graceMs: 0 },
    );
    expect(waited).toEqual({ how: 'cancelled' });
    expect(ended).toEqual([runId]);
  });
});
