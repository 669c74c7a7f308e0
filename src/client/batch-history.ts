import type { Client } from '@temporalio/client';
import { defaultPayloadConverter, fromPayloadsAtIndex } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import type { BatchRoundTask, SubmittedBatch } from '../../activities/batch.ts';
import type { BatchWait } from '../core/progress.ts';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * The batch an experiment's history shows it waiting on: a round's `submitBatch` that sent a batch, with no
 * `receiveBatch` completed after it; undefined when it waits on none. Read without a worker, so its count of requests
 * done is the provider's last known to the run: 0 until a look at the batch is recorded.
 */
export function batchWaitInEvents(events: readonly HistoryEvent[]): BatchWait | undefined {
  const scheduled = new Map<string, { type: string; round?: number; provider?: string }>();
  let wait: BatchWait | undefined;
  for (const event of events) {
    const schedule = event.activityTaskScheduledEventAttributes;
    if (schedule) {
      const type = schedule.activityType?.name ?? '';
      const task =
        type === 'submitBatch'
          ? fromPayloadsAtIndex<BatchRoundTask>(defaultPayloadConverter, 0, schedule.input?.payloads)
          : undefined;
      scheduled.set(String(event.eventId), {
        type,
        ...(task ? { round: task.round, provider: task.contender.provider } : {}),
      });
    }
    const completed = event.activityTaskCompletedEventAttributes;
    const what = completed ? scheduled.get(String(completed.scheduledEventId)) : undefined;
    if (what?.type === 'receiveBatch') wait = undefined;
    if (what?.type === 'pollBatch' && wait) {
      const status = fromPayloadsAtIndex<{ completed: number; failed: number }>(
        defaultPayloadConverter,
        0,
        completed?.result?.payloads,
      );
      if (status) wait = { ...wait, done: status.completed + status.failed };
    }
    if (what?.type !== 'submitBatch') continue;
    const sent = fromPayloadsAtIndex<SubmittedBatch>(defaultPayloadConverter, 0, completed?.result?.payloads);
    wait = sent?.batchId
      ? {
          batchId: sent.batchId,
          provider: what.provider ?? '',
          round: what.round ?? 1,
          done: 0,
          total: sent.requests,
          ...(sent.createdAt !== undefined ? { submittedAt: sent.createdAt } : {}),
          ...(sent.expiresAt !== undefined ? { expiresAt: sent.expiresAt } : {}),
        }
      : undefined;
  }
  return wait;
}

/**
 * The batch an experiment waits on, from its first run's history (its rounds come before its pool, so the reading
 * stops at the pool's first activity); undefined for one that waits on none.
 */
export async function readBatchWait(client: Client, workflowId: string): Promise<BatchWait | undefined> {
  const events: HistoryEvent[] = [];
  let nextPageToken: Uint8Array | undefined;
  do {
    const page = await client.workflowService.getWorkflowExecutionHistory({
      namespace: client.options.namespace,
      execution: { workflowId },
      ...(nextPageToken ? { nextPageToken } : {}),
    });
    const got = page.history?.events ?? [];
    events.push(...got);
    if (got.some((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runCases')) break;
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken);
  return batchWaitInEvents(events);
}
