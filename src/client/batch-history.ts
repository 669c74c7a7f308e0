import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { BatchRef, BatchRoundTask, SubmittedBatch } from '../../activities/batch.ts';
import type { SentBatch } from '../core/batch-cancel.ts';
import type { BatchWait } from '../core/progress.ts';
import { payloadValue } from './payload-value.ts';

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
        type === 'submitBatch' ? payloadValue<BatchRoundTask>(schedule.input?.payloads) : undefined;
      scheduled.set(String(event.eventId), {
        type,
        ...(task ? { round: task.round, provider: task.contender.provider } : {}),
      });
    }
    const completed = event.activityTaskCompletedEventAttributes;
    const what = completed ? scheduled.get(String(completed.scheduledEventId)) : undefined;
    if (what?.type === 'receiveBatch') wait = undefined;
    if (what?.type === 'pollBatch' && wait) {
      const status = payloadValue<{ completed: number; failed: number }>(completed?.result?.payloads);
      if (status) wait = { ...wait, done: status.completed + status.failed };
    }
    if (what?.type !== 'submitBatch') continue;
    const sent = payloadValue<SubmittedBatch>(completed?.result?.payloads);
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
 * Every batch an experiment's history shows sent (a round's `submitBatch` that made one), with what became of it: its
 * replies read (`receiveBatch`), cancelled at its provider by a worker (`cancelBatch`), its status at the last look.
 */
export function sentBatchesInEvents(events: readonly HistoryEvent[]): SentBatch[] {
  const scheduled = new Map<string, { type: string; input: unknown }>();
  const sent = new Map<string, SentBatch>();
  for (const event of events) {
    const schedule = event.activityTaskScheduledEventAttributes;
    if (schedule) {
      const input = payloadValue<unknown>(schedule.input?.payloads);
      scheduled.set(String(event.eventId), { type: schedule.activityType?.name ?? '', input });
    }
    const completed = event.activityTaskCompletedEventAttributes;
    const what = completed ? scheduled.get(String(completed.scheduledEventId)) : undefined;
    if (!what) continue;
    const result = payloadValue<unknown>(completed?.result?.payloads);
    if (what.type === 'submitBatch') {
      const task = what.input as BatchRoundTask;
      const made = result as SubmittedBatch | undefined;
      if (made?.batchId) {
        const batch = { provider: task.contender.provider, batchId: made.batchId };
        sent.set(made.batchId, { ...batch, received: false, cancelled: false });
      }
      continue;
    }
    const found = sent.get((what.input as Partial<BatchRef> | undefined)?.batchId ?? '');
    if (!found) continue;
    if (what.type === 'receiveBatch') found.received = true;
    if (what.type === 'cancelBatch') found.cancelled = true;
    const status = (result as { status?: unknown } | undefined)?.status;
    if (what.type === 'pollBatch' && typeof status === 'string') found.lastStatus = status;
  }
  return [...sent.values()];
}

/**
 * The events of an experiment's batch rounds: its first run's history up to its pool's first activity (its rounds
 * come before its pool).
 */
async function roundEvents(client: Client, workflowId: string): Promise<HistoryEvent[]> {
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
  return events;
}

/** The batch an experiment waits on, from its history; undefined for one that waits on none. */
export async function readBatchWait(client: Client, workflowId: string): Promise<BatchWait | undefined> {
  return batchWaitInEvents(await roundEvents(client, workflowId));
}

/** The batches an experiment sent, from its history, with what became of each (sentBatchesInEvents). */
export async function readSentBatches(client: Client, workflowId: string): Promise<SentBatch[]> {
  return sentBatchesInEvents(await roundEvents(client, workflowId));
}
