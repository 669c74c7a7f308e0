// How far a run has come: its progress asked of its workflows (a worker answers), and what its `--batch` experiments
// wait on and sent, read from their histories (no worker needed).
import { isGrpcServiceError, type Client } from '@temporalio/client';
import type { SentBatch } from '../core/batch-cancel.ts';
import type { BatchWait, ExperimentProgress, RunProgress } from '../core/progress.ts';
import { experimentWorkflowId, runWorkflowId } from '../core/run-input.ts';
import { experimentProgressQuery, runProgressQuery } from '../../workflows/messages.ts';
import { readBatchWait, readSentBatches } from './batch-history.ts';

/** The run's progress, with each running experiment's own count (asked of it) in place of its zeros; needs a worker. */
export async function runProgress(client: Client, runId: string, timeoutMs?: number): Promise<RunProgress> {
  const ask = async () => {
    const progress = await client.workflow.getHandle(runWorkflowId(runId)).query(runProgressQuery);
    await Promise.all(
      progress.experiments.map(async (e) => {
        if (e.state !== 'running') return;
        try {
          const own: ExperimentProgress = await client.workflow
            .getHandle(experimentWorkflowId(runId, e.id))
            .query(experimentProgressQuery);
          e.done = own.done;
          e.errors = own.errors;
          if (own.batch) e.batch = own.batch;
        } catch {
          // The experiment may have just closed; the next poll counts it through the run.
        }
      }),
    );
    return progress;
  };
  if (timeoutMs === undefined) return ask();
  return client.connection.withDeadline(Date.now() + timeoutMs, ask);
}

/** The batch each running experiment of a `--batch` run waits on, read from their histories (no worker needed). */
export async function batchWaits(
  client: Client,
  runId: string,
  experimentIds: readonly string[],
): Promise<Map<string, BatchWait>> {
  const waits = new Map<string, BatchWait>();
  await Promise.all(
    experimentIds.map(async (id) => {
      const wait = await readBatchWait(client, experimentWorkflowId(runId, id)).catch(() => undefined);
      if (wait) waits.set(id, wait);
    }),
  );
  return waits;
}

/** The batches the experiments of a `--batch` run sent, read from their histories, with what became of each. */
export async function sentBatches(
  client: Client,
  runId: string,
  experimentIds: readonly string[],
): Promise<SentBatch[]> {
  const each = await Promise.all(
    experimentIds.map((id) =>
      readSentBatches(client, experimentWorkflowId(runId, id)).catch((error: unknown) => {
        // gRPC's NOT_FOUND (5): the history of a workflow never started.
        if (isGrpcServiceError(error) && Number(error.code) === 5) return [];
        throw error;
      }),
    ),
  );
  return each.flat();
}
