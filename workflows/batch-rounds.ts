import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  patched,
  proxyActivities,
  sleep,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import {
  BATCH_CANNOT_SERVE,
  BATCH_ENDED,
  MAX_BATCH_ROUNDS,
  nextPollDelay,
  type BatchPolling,
} from '../src/core/batch.ts';
import type { BatchWait } from '../src/core/progress.ts';
import type { ExperimentInput } from '../src/core/run-input.ts';

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

/**
 * The patch under which a round's submit, look or read that only workers unable to reach the batch's provider took
 * (every attempt failed BATCH_CANNOT_SERVE: no such endpoint, no batch API, no key) is scheduled again, to wait for a
 * worker that can, as a pool's cases do. Before, the experiment failed.
 */
const BATCH_WAITS_FOR_A_WORKER = 'batch-waits-for-a-worker';

/** Whether an activity failed because no worker that took it could reach the batch's provider. */
const cannotServe = (error: unknown) =>
  error instanceof ActivityFailure &&
  error.cause instanceof ApplicationFailure &&
  error.cause.type === BATCH_CANNOT_SERVE;

/** Runs a batch activity until a worker that can reach its provider has run it (BATCH_WAITS_FOR_A_WORKER). */
async function served<T>(activity: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await activity();
    } catch (error) {
      // Asked only here, so a history without such a failure replays as before.
      if (!cannotServe(error) || !patched(BATCH_WAITS_FOR_A_WORKER)) throw error;
    }
  }
}

/** The cases of an experiment as a round's activity finds them: listed, or by its plan's reference and count. */
export function experimentCases(input: ExperimentInput) {
  return input.cases ? { cases: input.cases } : { plan: input.plan!, total: input.total ?? 0 };
}

/**
 * An experiment's batch rounds, before its pool runs: each round's submit runs the adapters with a model that records
 * the requests the reply cache cannot answer and sends them as one batch, whose id is then in the history; the wait
 * is a durable timer (no worker needed meanwhile) with back-off between looks; the ended batch's replies go into the
 * reply cache. A round that sends nothing ends them; so does one whose batch brought no reply (the pool calls the rest).
 * Cancelled while a batch runs, it cancels the provider's batch too. A step that no worker able to reach the provider
 * took waits for one (`served`).
 */
export async function batchRounds(
  input: ExperimentInput & { batch: BatchPolling },
  shown: { wait?: BatchWait },
): Promise<void> {
  const { runId, experimentId, dataset, contender } = input;
  for (let round = 1; round <= MAX_BATCH_ROUNDS; round++) {
    const sent = await served(() =>
      submitBatch({
        runId,
        experimentId,
        dataset,
        contender,
        round,
        ...experimentCases(input),
      }),
    );
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
        const status = await served(() => pollBatch(ref));
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
    const received = await served(() => receiveBatch({ ...ref, runId, contender }));
    shown.wait = undefined;
    if (received.replies === 0) return;
  }
}
