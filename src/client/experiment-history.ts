import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import type { ExchangeRequest, RetryReport } from '../core/experiment-state.ts';
import { ResultSharing, type CaseResult } from '../core/results.ts';
import type { RetryOutcome } from '../../activities/run-case.ts';
import type { PoolResult } from '../../activities/run-cases.ts';
import { payloadValue } from './payload-value.ts';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * The results a stretch of an experiment's history holds, in the order Temporal recorded them (duplicates included).
 * `scheduled` carries the activities' types from one stretch to the next, for a history read piece by piece, and
 * `sharing` the parts the results share (see ResultSharing: a report holds every result of a run).
 */
export function resultsInEvents(
  events: readonly HistoryEvent[],
  scheduled = new Map<string, string>(),
  sharing = new ResultSharing(),
): CaseResult[] {
  const found: CaseResult[] = [];
  const push = (result: CaseResult) => found.push(sharing.share(result));
  for (const event of events) {
    const accepted = event.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.input;
    if (accepted?.name === 'exchange') {
      const request = payloadValue<ExchangeRequest>(accepted.args?.payloads);
      for (const item of request?.settled ?? []) if ('result' in item) push(item.result);
    } else if (accepted?.name === 'retry') {
      const report = payloadValue<RetryReport>(accepted.args?.payloads);
      if (report?.result) push(report.result);
    }
    const schedule = event.activityTaskScheduledEventAttributes;
    if (schedule) scheduled.set(String(event.eventId), schedule.activityType?.name ?? '');
    const completed = event.activityTaskCompletedEventAttributes;
    const type = completed ? scheduled.get(String(completed.scheduledEventId)) : undefined;
    const payloads = completed?.result?.payloads;
    if (type === 'runCase') {
      const outcome = payloadValue<RetryOutcome>(payloads);
      if (outcome && 'result' in outcome) push(outcome.result);
    } else if (type === 'runCases') {
      const pool = payloadValue<PoolResult>(payloads);
      for (const item of pool?.settled ?? []) if ('result' in item) push(item.result);
    }
  }
  return found;
}

/** Keeps the first result of each case, as the experiment workflow did when it settled them. */
export function firstPerCase(results: readonly CaseResult[]): CaseResult[] {
  const seen = new Set<string>();
  return results.filter((r) => (seen.has(r.caseKey) ? false : (seen.add(r.caseKey), true)));
}

/** Whether an event closes its workflow run (completed, failed, timed out, cancelled, terminated, continued). */
function closes(event: HistoryEvent | undefined): boolean {
  return Boolean(
    event &&
    (event.workflowExecutionCompletedEventAttributes ??
      event.workflowExecutionFailedEventAttributes ??
      event.workflowExecutionTimedOutEventAttributes ??
      event.workflowExecutionCanceledEventAttributes ??
      event.workflowExecutionTerminatedEventAttributes ??
      event.workflowExecutionContinuedAsNewEventAttributes),
  );
}

/**
 * Makes one request that `stop` cancels. Each request gets a signal of its own: the SDK leaves its listener on the
 * signal it is given, and a follower makes a request for every few events.
 */
async function stoppable<T>(client: Client, stop: AbortSignal, request: () => Promise<T>): Promise<T> {
  const call = new AbortController();
  const cancel = () => call.abort();
  stop.addEventListener('abort', cancel, { once: true });
  try {
    if (stop.aborted) throw new Error('stopped');
    return await client.connection.withAbortSignal(call.signal, request);
  } finally {
    stop.removeEventListener('abort', cancel);
  }
}

/**
 * How many events a history page holds at most. The server's own pages are about 4 MB each (one gRPC message), and
 * the C heap that received 8 experiments' pages at once kept 60–90 MB after they were let go; pages of 100 events,
 * two experiments at a time (run-results.ts), leave 30–40 MB.
 */
const PAGE_EVENTS = 100;

/**
 * The results of an experiment's whole continue-as-new chain, read page by page from `runId` on. With `follow` (the
 * signal that stops it), each page waits for new events, so it ends only when the chain has closed; without, it ends
 * with what is written.
 * Returns whether the chain's last run had closed when its last page was read.
 */
async function chainResults(
  client: Client,
  workflowId: string,
  runId: string | undefined,
  follow?: AbortSignal,
): Promise<{ results: CaseResult[]; ended: boolean }> {
  const found: CaseResult[] = [];
  const scheduled = new Map<string, string>();
  const sharing = new ResultSharing();
  let last: HistoryEvent | undefined;
  while (runId) {
    let nextPageToken: Uint8Array | undefined;
    last = undefined;
    do {
      const request = {
        namespace: client.options.namespace,
        execution: { workflowId, runId },
        maximumPageSize: PAGE_EVENTS,
        ...(follow ? { waitNewEvent: true } : {}),
        ...(nextPageToken ? { nextPageToken } : {}),
      };
      const page = await (follow
        ? stoppable(client, follow, () => client.workflowService.getWorkflowExecutionHistory(request))
        : client.workflowService.getWorkflowExecutionHistory(request));
      const events = page.history?.events ?? [];
      for (const result of resultsInEvents(events, scheduled, sharing)) found.push(result);
      last = events.at(-1) ?? last;
      nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
    } while (nextPageToken);
    runId = last?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return { results: firstPerCase(found), ended: closes(last) };
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
  const firstRun = description.raw.workflowExecutionInfo?.firstRunId ?? description.runId;
  const { results } = await chainResults(client, workflowId, firstRun);
  return { results, closed };
}

/**
 * Follows an experiment's histories as Temporal writes them and resolves with every settled result once its chain
 * has closed: what readExperimentResults reads then, decoded while the experiment ran instead of after it. Resolves
 * undefined when it could not follow to the end (the server went away, or `signal` stopped it).
 */
export async function followExperimentResults(
  client: Client,
  workflowId: string,
  signal: AbortSignal,
): Promise<CaseResult[] | undefined> {
  try {
    const description = await stoppable(client, signal, () =>
      client.workflow.getHandle(workflowId).describe(),
    );
    const firstRun = description.raw.workflowExecutionInfo?.firstRunId ?? description.runId;
    const { results, ended } = await chainResults(client, workflowId, firstRun, signal);
    return ended ? results : undefined;
  } catch {
    return undefined;
  }
}
