/**
 * Calls in flight per key (an endpoint's `max_concurrency`), held by the run's gate across experiments and workers:
 * a call takes a lease on each of its keys before it starts, its worker renews it every RENEW_MS while the call runs,
 * and gives it back when it ends. A lease nobody renews (its worker died mid-call) lapses LEASE_MS after its last
 * renewal, so a lost worker blocks a key for seconds, not for good.
 */
export interface InFlight {
  /** Per key: the most calls at once. */
  max: Record<string, number>;
  /** Per key: the holders of its leases and when each lapses (epoch ms). */
  leases: Record<string, Record<string, number>>;
  /** Per holder queued for a place: when it first asked and when it last did (epoch ms), to count its wait. */
  queued?: Record<string, [since: number, last: number]>;
}

/** How long a lease holds after it was taken or last renewed: a few renewals, so a busy worker does not lose it. */
export const LEASE_MS = 10_000;
/** How often a worker renews the leases of its calls in flight. */
export const RENEW_MS = 2_500;
/** A queued holder that has not asked again for this long gave up (its run paused, its worker died): forgotten. */
const QUEUED_FORGET_MS = 60_000;

/** The keys of `keys` that a concurrency limit counts. */
export function countedKeys(inFlight: InFlight, keys: readonly string[]): string[] {
  return keys.filter((key) => inFlight.max[key] !== undefined);
}

/**
 * Takes a lease on every counted key for `holder` when each has a free place, else none (mutates `inFlight`).
 * Returns whether the call may start; a holder asking again keeps its leases (a repeated request is harmless).
 */
export function takeLeases(
  inFlight: InFlight,
  keys: readonly string[],
  holder: string,
  now: number,
): boolean {
  const counted = countedKeys(inFlight, keys);
  for (const key of counted) {
    const leases = (inFlight.leases[key] ??= {});
    for (const [other, until] of Object.entries(leases)) if (until <= now) delete leases[other];
  }
  const free = counted.every((key) => {
    const leases = inFlight.leases[key]!;
    return holder in leases || Object.keys(leases).length < inFlight.max[key]!;
  });
  if (!free) return false;
  for (const key of counted) inFlight.leases[key]![holder] = now + LEASE_MS;
  return true;
}

/** Extends the leases these holders still have to LEASE_MS from now (mutates `inFlight`); a lapsed lease stays lapsed. */
export function renewLeases(inFlight: InFlight, holders: readonly string[], now: number): void {
  for (const leases of Object.values(inFlight.leases)) {
    for (const holder of holders) if (leases[holder] !== undefined) leases[holder] = now + LEASE_MS;
  }
}

/**
 * Notes that `holder` asked for a place and found none (mutates `inFlight`), forgetting holders that stopped asking.
 */
export function noteQueued(inFlight: InFlight, holder: string, now: number): void {
  const queued = (inFlight.queued ??= {});
  for (const [other, [, last]] of Object.entries(queued)) {
    if (now - last > QUEUED_FORGET_MS) delete queued[other];
  }
  queued[holder] = [queued[holder]?.[0] ?? now, now];
}

/** Milliseconds `holder` spent queued before it took its place now, and forgets it (mutates `inFlight`); 0 if never. */
export function takeQueuedWait(inFlight: InFlight, holder: string, now: number): number {
  const entry = inFlight.queued?.[holder];
  if (!entry) return 0;
  delete inFlight.queued![holder];
  return Math.max(0, now - entry[0]);
}

/** When the first lease on any of `keys` lapses unless renewed (epoch ms); `undefined` when none is held. */
export function nextLapse(inFlight: InFlight, keys: readonly string[]): number | undefined {
  const times = countedKeys(inFlight, keys).flatMap((key) => Object.values(inFlight.leases[key] ?? {}));
  return times.length ? Math.min(...times) : undefined;
}

/** Gives back a holder's leases on every key (mutates `inFlight`); giving back twice does nothing. */
export function giveBackLeases(inFlight: InFlight, holder: string): void {
  for (const leases of Object.values(inFlight.leases)) delete leases[holder];
}
