/**
 * Calls in flight per key (an endpoint's `max_concurrency`), held by the run's gate across experiments and workers:
 * a call takes a lease on each of its keys before it starts and gives it back when it ends. A lease a worker never
 * gave back (it died mid-call) lapses after LEASE_MS, so a lost worker cannot block a key for good.
 */
export interface InFlight {
  /** Per key: the most calls at once. */
  max: Record<string, number>;
  /** Per key: the holders of its leases and when each lapses (epoch ms). */
  leases: Record<string, Record<string, number>>;
}

/** How long a lease holds without being given back: longer than any call a timeout lets through. */
export const LEASE_MS = 10 * 60_000;

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

/** Gives back a holder's leases on every key (mutates `inFlight`); giving back twice does nothing. */
export function giveBackLeases(inFlight: InFlight, holder: string): void {
  for (const leases of Object.values(inFlight.leases)) delete leases[holder];
}
