/**
 * An experiment's cases as the workflow holds them: never handed out (at or past `cursor`), leased to a pool of calls,
 * handed back and waiting (`returned`), running as a retry, or done. Everything before the cursor that is in none of
 * those lists is done, so the state stays small enough to carry across continue-as-new for any number of cases.
 */
export interface CaseQueue {
  total: number;
  cursor: number;
  /** Case index → the pool holding it (`<activityId>:<attempt>`). */
  leases: Record<string, string>;
  /** Handed back unfinished (its pool ended or was paused), served before the cursor, oldest first. */
  returned: number[];
  /** Running as a retry activity after a retryable failure. */
  retrying: number[];
  done: number;
  errors: number;
}

/** A fresh queue over `total` cases. */
export function newQueue(total: number): CaseQueue {
  return { total, cursor: 0, leases: {}, returned: [], retrying: [], done: 0, errors: 0 };
}

/** Hands up to `count` waiting cases to `holder`: the returned ones first, then from the cursor (mutates `queue`). */
export function lease(queue: CaseQueue, holder: string, count: number): number[] {
  const given = queue.returned.splice(0, Math.max(0, count));
  while (given.length < count && queue.cursor < queue.total) given.push(queue.cursor++);
  for (const index of given) queue.leases[index] = holder;
  return given;
}

/** Whether a case still waits for its result: leased, returned or retrying, and not yet settled. */
export function isOutstanding(queue: CaseQueue, index: number): boolean {
  return index in queue.leases || queue.returned.includes(index) || queue.retrying.includes(index);
}

function forget(queue: CaseQueue, index: number): void {
  delete queue.leases[index];
  queue.returned = queue.returned.filter((i) => i !== index);
  queue.retrying = queue.retrying.filter((i) => i !== index);
}

/**
 * Records a case's result; only the first result of a case counts (a pool thought dead may still report). Returns
 * whether it counted, which is also what a reader of the history decides by keeping the first result per case.
 */
export function settle(queue: CaseQueue, index: number, failed: boolean): boolean {
  if (!isOutstanding(queue, index)) return false;
  forget(queue, index);
  queue.done++;
  if (failed) queue.errors++;
  return true;
}

/** Hands a leased case back to wait for another pool, as when a call was deferred by a pause (mutates `queue`). */
export function giveBack(queue: CaseQueue, index: number): void {
  if (!(index in queue.leases)) return;
  delete queue.leases[index];
  queue.returned.push(index);
}

/** Moves a leased case to the retry list, after a retryable failure (mutates `queue`). */
export function startRetry(queue: CaseQueue, index: number): boolean {
  if (!(index in queue.leases)) return false;
  delete queue.leases[index];
  queue.retrying.push(index);
  return true;
}

/** Hands back every case leased to a holder other than `keep`: their pool ended or was superseded (mutates `queue`). */
export function releaseOthers(queue: CaseQueue, keep?: string): number {
  const stale = Object.entries(queue.leases)
    .filter(([, holder]) => holder !== keep)
    .map(([index]) => Number(index))
    .sort((a, b) => a - b);
  for (const index of stale) giveBack(queue, index);
  return stale.length;
}

/** Hands a retry that could not finish back to the waiting list, as when its worker died (mutates `queue`). */
export function retryReturned(queue: CaseQueue, index: number): void {
  if (!queue.retrying.includes(index)) return;
  queue.retrying = queue.retrying.filter((i) => i !== index);
  queue.returned.push(index);
}

/** How many cases wait for a pool: returned ones and those never handed out. */
export function waiting(queue: CaseQueue): number {
  return queue.returned.length + (queue.total - queue.cursor);
}

/** Whether every case has its result. */
export function isComplete(queue: CaseQueue): boolean {
  return queue.done >= queue.total;
}
