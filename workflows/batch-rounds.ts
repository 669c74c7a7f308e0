import { CancellationScope, isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { BATCH_ENDED, MAX_BATCH_ROUNDS, nextPollDelay, type BatchPolling } from '../src/core/batch.ts';
import type { BatchWait } from '../src/core/progress.ts';
import type { ExperimentInput } from './experiment.ts';

/** Collecting a round's requests, sending them, and reading the replies: activities that heartbeat while they work. */
const { submitBatch, receiveBatch, cancelBatch } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '15 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 10,
  },
});

/** A look at a batch: short; a provider briefly away is tried again at the next look's pace. */
const { pollBatch } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: {
    initialInterval: '5 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 10,
  },
});

/** The cases of an experiment as a round's activity finds them: listed, or by its plan's reference and count. */
export function experimentCases(input: ExperimentInput) {
  return input.cases ? { cases: input.cases } : { plan: input.plan!, total: input.total ?? 0 };
}

/**
 * An experiment's batch rounds, before its pool runs: each round's submit runs the adapters with a model that records
 * the requests the reply cache cannot answer and sends them as one batch, whose id is then in the history; the wait
 * is a durable timer (no worker needed meanwhile) with back-off between looks; the ended batch's replies go into the
 * reply cache. A round that sends nothing ends them; so does one whose batch brought no reply (the pool calls the rest).
 * Cancelled while a batch runs, it cancels the provider's batch too.
 */
export async function batchRounds(
  input: ExperimentInput & { batch: BatchPolling },
  shown: { wait?: BatchWait },
): Promise<void> {
  const { runId, experimentId, dataset, contender } = input;
  for (let round = 1; round <= MAX_BATCH_ROUNDS; round++) {
    const sent = await submitBatch({
      runId,
      experimentId,
      dataset,
      contender,
      round,
      ...experimentCases(input),
    });
    if (!sent.batchId) return;
    const ref = { provider: contender.provider, batchId: sent.batchId };
    shown.wait = {
      batchId: sent.batchId,
      provider: contender.provider,
      round,
      done: 0,
      total: sent.requests,
      ...(sent.createdAt !== undefined ? { submittedAt: sent.createdAt } : {}),
      ...(sent.expiresAt !== undefined ? { expiresAt: sent.expiresAt } : {}),
    };
    try {
      let delay: number | undefined;
      for (;;) {
        delay = nextPollDelay(delay, input.batch.poll);
        await sleep(delay * 1000);
        const status = await pollBatch(ref);
        shown.wait = {
          ...shown.wait,
          done: status.completed + status.failed,
          total: status.total || sent.requests,
        };
        if (status.expiresAt !== undefined) shown.wait.expiresAt = status.expiresAt;
        if (BATCH_ENDED.includes(status.status)) break;
      }
    } catch (error) {
      if (isCancellation(error)) await CancellationScope.nonCancellable(() => cancelBatch(ref));
      throw error;
    }
    const received = await receiveBatch({ ...ref, runId, contender });
    shown.wait = undefined;
    if (received.replies === 0) return;
  }
}
