// `cancel RUN` asks the run to cancel and waits for a worker to close it: the worker's pools start no call and report
// the calls they have in flight, paid for, before their experiments close. A call can take minutes, so a fixed wait
// dropped the long ones. Instead cancel waits as long as a worker is seen serving the run (its activities heartbeat),
// and ends the run itself only when none is: then nothing of the run is under way anywhere, and nothing is lost.

/**
 * Something a cancelled run (or one of its experiments) still has pending, as Temporal describes it: an activity, a
 * workflow task (WORKFLOW_TASK), or an experiment that closed before its run heard of it (CLOSED_EXPERIMENT).
 */
export interface PendingWork {
  /** The activity's type (`runCases`: a pool, `runCase`: a retried case's call, `track`…), or one of the two above. */
  type: string;
  /** Whether a worker holds it (started, or asked to cancel while it runs), not merely scheduled. */
  started: boolean;
  /**
   * When a worker last showed it alive (epoch ms): an activity's last heartbeat, else its start; a workflow task's
   * start, else when it was scheduled; when the experiment closed.
   */
  seenAt?: number;
  /** The calls a pool said it had in flight at its last heartbeat. */
  calls?: number;
  /** When a pool's call last ended, and its slowest call (ms): whether its provider still answers (`silence.ts`). */
  answeredAt?: number;
  slowestMs?: number;
  /** The workflow it belongs to: the run's, or an experiment's. */
  workflowId?: string;
}

/** A workflow task of the run or of an experiment: the next step of its workflow, for a worker to take. */
export const WORKFLOW_TASK = 'workflow task';

/** An experiment that has closed while its run still lists it: the run's worker is about to hear of it. */
export const CLOSED_EXPERIMENT = 'closed experiment';

/**
 * How recent a heartbeat says a worker still serves the run. A dead worker's activity leaves the started state once
 * its heartbeat timeout passes (5 s for a pool, 15 s for a track), so this is only the backstop for one without a
 * heartbeat timeout. It is not tight: a worker of an earlier version sends a pool's heartbeat every 4 s, and a loaded
 * machine delays it further.
 */
export const SERVED_WITHIN_MS = 30_000;

/**
 * How long cancel waits for the run to close before it takes the absence of a worker's activity for no worker: a
 * worker alive between two activities (the run's cancellation still on its way to the experiments) closes it sooner.
 */
export const CANCEL_GRACE_MS = 15_000;

/**
 * How long a workflow task no worker has taken yet, or an experiment that closed before its run heard of it, counts as
 * the run's worker at work. Between a pool's last report and the run's close its worker closes the experiment, then
 * the run, each in a workflow task, with no activity pending: on a loaded machine one such task took 3 s. A live
 * worker takes a workflow task within moments; a dead one never does, and this short wait keeps its run ending soon.
 */
export const HANDOFF_MS = 5000;

/**
 * How recent a worker's poll of the run's task queue says a worker may serve the run. A live worker always has a poll
 * open for workflow tasks; Temporal holds one up to 60 s before it answers empty (the SDK gives up at 70 s) and the
 * worker polls again at once, so an idle live worker's last poll is at most about 70 s old. 90 s leaves 20 s for a
 * loaded machine. Past it, no worker can take the run's next task, and waiting for one only keeps the user waiting.
 */
export const POLLED_WITHIN_MS = 90_000;

/** Whether a worker polled a task queue, at `polls`, recently enough to be alive at `now` (POLLED_WITHIN_MS). */
export function polledWithin(polls: readonly number[], now: number): boolean {
  return polls.some((at) => now - at <= POLLED_WITHIN_MS);
}

/**
 * What one look at a cancelled run's pending work says: whether a worker serves it, its calls in flight, what next
 * (`closed`: the run has closed, and there is nothing left to wait for or to end).
 */
export interface CancelLook {
  served: boolean;
  calls: number;
  next: 'wait' | 'terminate' | 'closed';
}

/**
 * Decides, from what a cancelled run still has pending at `now`, after `waitedMs`, whether cancel keeps waiting: as
 * long as a worker serves it, else for `graceMs` at most. A run seen closed (`runClosed`) has nothing pending because
 * its worker closed it: the look can come before cancel's own wait for the close has heard of it, and on a loaded
 * machine it did, and cancel then said Temporal had ended a run its worker had closed (issue #28).
 *
 * `polls` are when each worker last polled the run's task queue (undefined: not known). With none within
 * POLLED_WITHIN_MS, no worker can take the run's next task: neither the grace nor a task waiting for a worker is
 * waited for, and a run started with no worker ends at once. A worker's fresh heartbeat still wins over an empty list
 * of pollers (a server whose task queue is split into partitions may give one): a call in flight is never given up on
 * a guess.
 */
export function lookAtCancel(
  pending: readonly PendingWork[],
  now: number,
  waitedMs: number,
  graceMs = CANCEL_GRACE_MS,
  runClosed = false,
  polls?: readonly number[],
): CancelLook {
  if (runClosed) return { served: false, calls: 0, next: 'closed' };
  const polled = !polls || polledWithin(polls, now);
  const alive = pending.filter((work) => {
    const ago = now - (work.seenAt ?? -Infinity);
    if (work.started) return ago <= SERVED_WITHIN_MS;
    // Work no worker holds yet counts only while a worker polls for it.
    return polled && (work.type === WORKFLOW_TASK || work.type === CLOSED_EXPERIMENT) && ago <= HANDOFF_MS;
  });
  const calls = alive.reduce((sum, work) => sum + callsOf(work), 0);
  const served = alive.length > 0;
  return { served, calls, next: served || (polled && waitedMs < graceMs) ? 'wait' : 'terminate' };
}

/** The calls in flight of one pending work: a pool's from its heartbeat, a retried case's one. */
function callsOf(work: PendingWork): number {
  return work.type === 'runCase' ? 1 : work.type === 'runCases' ? (work.calls ?? 0) : 0;
}

/**
 * The calls in flight of each workflow a worker is seen serving at `now` (held, heard from within SERVED_WITHIN_MS):
 * cancel keeps the most of each, to say, once the run closed, what became of them.
 */
export function inFlightBy(pending: readonly PendingWork[], now: number): Map<string, number> {
  const by = new Map<string, number>();
  for (const work of pending) {
    const calls = callsOf(work);
    if (!calls || !work.workflowId || !work.started || now - (work.seenAt ?? -Infinity) > SERVED_WITHIN_MS)
      continue;
    by.set(work.workflowId, (by.get(work.workflowId) ?? 0) + calls);
  }
  return by;
}

/**
 * An experiment that had calls in flight while cancel waited: the most it was seen with (its pool's heartbeat, its
 * retried calls), and how it closed, as Temporal names it (`COMPLETED`, `CANCELLED`, `FAILED`…; undefined: not known).
 */
export interface WaitedExperiment {
  calls: number;
  closed?: string;
}

/** The calls a cancel waited for, by what became of them: recorded, lost, or not known. */
export interface WaitedCalls {
  recorded: number;
  lost: number;
  unknown: number;
}

/**
 * What became of the calls a cancel waited for, from how their experiments closed. An experiment that closed
 * cancelled (or completed) did so after its pool reported its calls. One that failed or timed out did not: its pool
 * missed its heartbeat (its worker stopped answering), and Temporal does not try a cancelled pool again, so the replies
 * in flight were lost, and cancel must not say they were recorded (issue #28). A terminated one was ended before it
 * could report.
 */
export function waitedCalls(experiments: readonly WaitedExperiment[]): WaitedCalls {
  const calls: WaitedCalls = { recorded: 0, lost: 0, unknown: 0 };
  for (const { calls: n, closed } of experiments) {
    if (closed === 'CANCELLED' || closed === 'COMPLETED') calls.recorded += n;
    else if (closed === 'FAILED' || closed === 'TIMED_OUT' || closed === 'TERMINATED') calls.lost += n;
    else calls.unknown += n;
  }
  return calls;
}

/** What cancel says of how the run it cancelled closed: Temporal ended it (no worker did), or its worker closed it. */
export function closedWords(how: 'cancelled' | 'terminated'): string {
  return how === 'terminated' ? 'no worker closed it, so Temporal ended it' : 'no call starts from now on';
}

/** `N calls in flight`, with the right number. */
export function callsInFlight(n: number): string {
  return `${n} call${n === 1 ? '' : 's'} in flight`;
}

/** What cancel says of the calls it waited for once the run closed: one clause per fate, or nothing when none. */
export function waitedClauses({ recorded, lost, unknown }: WaitedCalls): string[] {
  return [
    ...(recorded ? [`waited for ${callsInFlight(recorded)}, now recorded`] : []),
    ...(lost
      ? [
          `${callsInFlight(lost)} ${lost === 1 ? 'was' : 'were'} lost: their worker stopped answering, its pool ` +
            'timed out, and Temporal does not try a cancelled pool again',
        ]
      : []),
    ...(unknown ? [`waited for ${callsInFlight(unknown)}`] : []),
  ];
}
