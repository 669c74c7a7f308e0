// `cancel RUN`'s wait for a worker to close the run it cancelled: it looks, every few seconds, at what the run and its
// experiments still have pending, and `lookAtCancel` (src/core/cancel-wait.ts) decides whether a worker still serves
// the run or the run is to be ended.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client, WorkflowExecutionDescription } from '@temporalio/client';
import {
  CLOSED_EXPERIMENT,
  inFlightBy,
  lookAtCancel,
  waitedCalls,
  WORKFLOW_TASK,
  type PendingWork,
  type WaitedCalls,
} from '../core/cancel-wait.ts';
import { runWorkflowId } from '../core/run-input.ts';
import { protoMs } from './namespace.ts';
import { pollTimesOf } from './pollers.ts';
import { payloadValue } from './payload-value.ts';

/** How often `cancel` looks whether a worker still serves the run it is waiting for. */
const CANCEL_LOOK_MS = 2000;

/** `PENDING_ACTIVITY_STATE_STARTED` and `…_CANCEL_REQUESTED` in Temporal's API: a worker holds the activity. */
const HELD = [2, 3];

/** `PENDING_WORKFLOW_TASK_STATE_STARTED` in Temporal's API: a worker holds the workflow task. */
const TASK_HELD = 2;

/** What the wait asks of a run's client (`Runs`): the connection, a wait for the run's close, and its gate's end. */
export interface RunsToWaitOn {
  client: Client;
  closed(runId: string, stop?: AbortSignal): Promise<unknown>;
  endGate(runId: string): Promise<void>;
}

/** What cancelAndWait is told: when to stop waiting, whom to tell that it waits, and the grace (CANCEL_GRACE_MS). */
export interface CancelWaitOptions {
  stop?: AbortSignal;
  onWaiting?: (calls: number) => void;
  graceMs?: number;
}

/**
 * How the cancelled run closed (`left`: the wait was stopped), the most calls in flight it waited for, and, once a
 * worker closed it, what became of them (`calls`).
 */
export interface CancelWaited {
  how: 'cancelled' | 'terminated' | 'left';
  waitedFor?: number;
  calls?: WaitedCalls;
}

/**
 * Waits for a run whose cancel was just asked (at `asked`) to close, then ends its gate. A worker closes the run after
 * its pools reported the calls they had in flight, however long those take: the wait goes on as long as a worker
 * serves the run (`lookAtCancel`), telling `onWaiting` once how many calls it waits for, and ends the run itself
 * (terminated, its experiments with it) only when none does. `stop` ends the wait early: the run stays cancelled and
 * its worker closes it (`left`). `waitedFor` is the most calls in flight seen while waiting.
 */
export async function waitForCancelled(
  runs: RunsToWaitOn,
  runId: string,
  asked: number,
  options: CancelWaitOptions = {},
): Promise<CancelWaited> {
  const waiting = new AbortController();
  let closed = false;
  const closing = runs.closed(runId, waiting.signal).then(() => (closed = !waiting.signal.aborted));
  const stopped = new Promise<void>((resolve) =>
    options.stop?.addEventListener('abort', () => resolve(), { once: true }),
  );
  let waitedFor: number | undefined;
  // The most calls in flight seen of each workflow, to ask how it closed.
  const inFlight = new Map<string, number>();
  let how: CancelWaited['how'] = 'cancelled';
  // The first look comes at once: a run no worker serves is ended on it, with no wait at all.
  for (let looks = 0; ; looks++) {
    if (looks > 0) await Promise.race([closing, stopped, sleep(CANCEL_LOOK_MS)]);
    if (closed) break;
    if (options.stop?.aborted) {
      how = 'left';
      break;
    }
    const seen = await pendingWork(runs.client, runId).catch(() => undefined);
    if (closed) break;
    // A server that does not answer tells nothing about the workers: the look is made again.
    if (!seen) continue;
    const now = Date.now();
    const look = lookAtCancel(seen.pending, now, now - asked, options.graceMs, seen.runClosed, seen.polls);
    for (const [id, calls] of inFlightBy(seen.pending, now))
      inFlight.set(id, Math.max(inFlight.get(id) ?? 0, calls));
    if (look.next === 'closed') break;
    if (look.served) {
      if (waitedFor === undefined) options.onWaiting?.(look.calls);
      waitedFor = Math.max(waitedFor ?? 0, look.calls);
    }
    if (look.next === 'terminate') {
      how = 'terminated';
      await runs.client.workflow
        .getHandle(runWorkflowId(runId))
        .terminate('cancelled, and no worker closed it')
        .catch(() => undefined);
      break;
    }
  }
  waiting.abort();
  // The gate is asked for slots and told outcomes until the last pool stopped: it stays while the run may run.
  if (how !== 'left') await runs.endGate(runId);
  const calls = how === 'cancelled' && inFlight.size ? await fatesOf(runs.client, inFlight) : undefined;
  return { how, ...(waitedFor !== undefined ? { waitedFor } : {}), ...(calls ? { calls } : {}) };
}

/** What became of the calls in flight of each workflow, from how it closed (not known when Temporal does not say). */
async function fatesOf(client: Client, inFlight: Map<string, number>): Promise<WaitedCalls> {
  const experiments = await Promise.all(
    [...inFlight].map(async ([workflowId, calls]) => {
      const status = await client.workflow
        .getHandle(workflowId)
        .describe()
        .then(
          (described) => described.status.name,
          () => undefined,
        );
      return { calls, ...(status ? { closed: status } : {}) };
    }),
  );
  return waitedCalls(experiments);
}

/**
 * What a run and its experiments have pending, as Temporal describes them: each activity (whether a worker holds it,
 * when it last heartbeat, and a pool's calls in flight from its heartbeat's details), each workflow task (whether a
 * worker holds it), and each experiment that closed before its run heard of it; whether the run has closed; and when
 * each worker last polled the run's task queue (`polls`, left out when Temporal did not say).
 */
export async function pendingWork(
  client: Client,
  runId: string,
): Promise<{ runClosed: boolean; pending: PendingWork[]; polls?: number[] }> {
  const run = await client.workflow.getHandle(runWorkflowId(runId)).describe();
  if (run.status.name !== 'RUNNING') return { runClosed: true, pending: [] };
  // Experiments run on their run's task queue, so its pollers are all the workers that could serve any of them.
  const polls = pollTimesOf(client, run.taskQueue);
  const children = await Promise.all(
    (run.raw.pendingChildren ?? []).flatMap(({ workflowId }) =>
      workflowId
        ? [
            client.workflow
              .getHandle(workflowId)
              .describe()
              .catch(() => undefined),
          ]
        : [],
    ),
  );
  const pending = [run, ...children].flatMap((described) => {
    if (!described) return [];
    if (described.status.name === 'RUNNING') return pendingOf(described);
    const seenAt = described.closeTime?.getTime();
    return [{ type: CLOSED_EXPERIMENT, started: false, ...(seenAt !== undefined ? { seenAt } : {}) }];
  });
  const polled = await polls;
  return { runClosed: false, pending, ...(polled ? { polls: polled } : {}) };
}

/** What one running workflow has pending: its activities and its workflow task. */
function pendingOf(described: WorkflowExecutionDescription): PendingWork[] {
  const activities = (described.raw.pendingActivities ?? []).map((activity): PendingWork => {
    const seenAt = protoMs(activity.lastHeartbeatTime) ?? protoMs(activity.lastStartedTime);
    const details = payloadValue<{ calls?: unknown; answeredAt?: unknown; slowestMs?: unknown }>(
      activity.heartbeatDetails?.payloads,
    );
    return {
      type: activity.activityType?.name ?? '',
      workflowId: described.workflowId,
      started: HELD.includes(Number(activity.state)),
      ...(seenAt !== undefined ? { seenAt } : {}),
      ...(typeof details?.calls === 'number' ? { calls: details.calls } : {}),
      ...(typeof details?.answeredAt === 'number' ? { answeredAt: details.answeredAt } : {}),
      ...(typeof details?.slowestMs === 'number' ? { slowestMs: details.slowestMs } : {}),
    };
  });
  const task = described.raw.pendingWorkflowTask;
  if (!task) return activities;
  const started = Number(task.state) === TASK_HELD;
  const seenAt = protoMs(started ? task.startedTime : task.scheduledTime);
  return [...activities, { type: WORKFLOW_TASK, started, ...(seenAt !== undefined ? { seenAt } : {}) }];
}
