/** What a pool of calls knows when it decides whether to talk to its experiment now. */
export interface PoolView {
  parallelism: number;
  /** Calls running. */
  running: number;
  /** Cases leased and not started. */
  buffered: number;
  /** Finished cases not yet reported, and when the oldest of them finished (ms), and their size in bytes. */
  unsent: number;
  oldestUnsentAt: number | null;
  unsentBytes: number;
  /** A failure waits to be reported: the gate counts failures for abort_after and the pause, so it goes at once. */
  urgent: boolean;
  /** The experiment said there is nothing more to hand out for now, or that the pool should end. */
  exhausted: boolean;
  /** An exchange is under way. */
  exchanging: boolean;
  /** Cases finished per second lately. */
  rate: number;
  now: number;
}

/** The longest a finished case waits before it is reported, and so made durable in Temporal. */
export const FLUSH_MS = 250;
/** Report at once when this many bytes of results wait, far below Temporal's 2 MB payload limit. */
export const FLUSH_BYTES = 512 * 1024;

/** How many cases a pool keeps leased beyond its running calls: `-p` cases, or a quarter second's at its pace. */
export function prefetch(parallelism: number, rate: number): number {
  return Math.min(500, Math.max(parallelism, 16, Math.ceil(rate / 4)));
}

/** The pool's next move: exchange now (asking for `want` cases), look again at a time, wait for an event, or end. */
export type PoolMove = { exchange: true; want: number } | { at: number } | { idle: true } | { end: true };

/**
 * Decides when a pool reports and asks for more: when its spare cases run below half their target (so each exchange
 * brings many), and when a finished case has waited FLUSH_MS — one exchange at a time, so reports batch under load.
 */
export function nextMove(view: PoolView): PoolMove {
  const { parallelism, running, buffered, unsent } = view;
  const idle = running === 0 && buffered === 0;
  if (view.exchanging) return { idle: true };
  // A pool ends only once all it finished is reported. Its result would be lost if Temporal had given its attempt
  // up (a heartbeat timeout while the server was away) without its worker knowing, and the cases paid again.
  if (view.exhausted && idle && unsent === 0) return { end: true };
  const spare = prefetch(parallelism, view.rate);
  const want = view.exhausted ? 0 : Math.max(0, parallelism + spare - running - buffered);
  const hungry = !view.exhausted && buffered <= spare / 2 && want > 0;
  if (hungry) return { exchange: true, want };
  if (unsent > 0) {
    const due = (view.oldestUnsentAt ?? view.now) + FLUSH_MS;
    if (idle || view.urgent || view.unsentBytes >= FLUSH_BYTES || view.now >= due)
      return { exchange: true, want };
    return { at: due };
  }
  return { idle: true };
}

/** How long a pool's successes may wait before the gate hears of them; a failure goes at once. */
export const REPORT_EVERY_MS = 1000;

/** Whether a pool tells the gate its outcomes now: one report at a time, at once for a failure, else once a second. */
export function gateReportDue(
  pending: { count: number; failures: number; since: number | null },
  reporting: boolean,
  now: number,
): boolean {
  if (reporting || pending.count === 0) return false;
  return pending.failures > 0 || now - (pending.since ?? now) >= REPORT_EVERY_MS;
}

/** How many cases a pool is given when it is scheduled: its `-p` calls and its spare cases, so it starts without asking. */
export function firstLease(parallelism: number): number {
  return parallelism + prefetch(parallelism, 0);
}

/** How long an exchange may take before the pool stops starting calls whose results it could not make durable. */
export const STALLED_AFTER_MS = 1000;

/**
 * Whether a pool starts no call because its experiment has not answered an exchange for STALLED_AFTER_MS (the
 * server is gone, or far behind): a call started now could finish without being recorded, and be paid twice.
 */
export function deliveryStalled(exchangingSince: number | null, now: number): boolean {
  return exchangingSince !== null && now - exchangingSince >= STALLED_AFTER_MS;
}
