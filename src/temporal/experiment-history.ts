import type { Client } from '@temporalio/client';
import { defaultPayloadConverter, fromPayloadsAtIndex } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import type { ExchangeRequest } from '../core/experiment-state.ts';
import type { CaseResult } from '../core/results.ts';
import type { RetryOutcome } from '../../activities/run-case.ts';
import type { PoolResult } from '../../activities/run-cases.ts';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** The results an experiment's history holds, in the order Temporal recorded them (duplicates included). */
export function resultsInEvents(events: readonly HistoryEvent[]): CaseResult[] {
  const scheduled = new Map<string, string>();
  const found: CaseResult[] = [];
  for (const event of events) {
    const accepted = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input;
    if (accepted?.name === 'exchange') {
      const request = fromPayloadsAtIndex<ExchangeRequest>(
        defaultPayloadConverter,
        0,
        accepted.args?.payloads,
      );
      for (const item of request?.settled ?? []) if ('result' in item) found.push(item.result);
    }
    const schedule = event.activityTaskScheduledEventAttributes;
    if (schedule) scheduled.set(String(event.eventId), schedule.activityType?.name ?? '');
    const completed = event.activityTaskCompletedEventAttributes;
    const type = completed ? scheduled.get(String(completed.scheduledEventId)) : undefined;
    const payloads = completed?.result?.payloads;
    if (type === 'runCase') {
      const outcome = fromPayloadsAtIndex<RetryOutcome>(defaultPayloadConverter, 0, payloads);
      if (outcome && 'result' in outcome) found.push(outcome.result);
    } else if (type === 'runCases') {
      const pool = fromPayloadsAtIndex<PoolResult>(defaultPayloadConverter, 0, payloads);
      for (const item of pool?.settled ?? []) if ('result' in item) found.push(item.result);
    }
  }
  return found;
}

/** Keeps the first result of each case, as the experiment workflow did when it settled them. */
export function firstPerCase(results: readonly CaseResult[]): CaseResult[] {
  const seen = new Set<string>();
  return results.filter((r) => (seen.has(r.caseKey) ? false : (seen.add(r.caseKey), true)));
}

/**
 * Every settled result of one experiment workflow, read from the histories of its whole continue-as-new chain: the
 * durable record of each case, available without a worker, also while the experiment runs. `closed` says the chain
 * had ended when it was read: its results can no longer change.
 */
export async function readExperimentResults(
  client: Client,
  workflowId: string,
): Promise<{ results: CaseResult[]; closed: boolean }> {
  const description = await client.workflow.getHandle(workflowId).describe();
  const closed = description.status.name !== 'RUNNING';
  let runId: string | undefined = description.raw.workflowExecutionInfo?.firstRunId ?? description.runId;
  const found: CaseResult[] = [];
  while (runId) {
    const events: HistoryEvent[] = [];
    let nextPageToken: Uint8Array | undefined;
    do {
      const page = await client.workflowService.getWorkflowExecutionHistory({
        namespace: client.options.namespace,
        execution: { workflowId, runId },
        ...(nextPageToken ? { nextPageToken } : {}),
      });
      events.push(...(page.history?.events ?? []));
      nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
    } while (nextPageToken);
    found.push(...resultsInEvents(events));
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return { results: firstPerCase(found), closed };
}
