/**
 * How far a series of call times (ms) goes past a token bucket of `burst` slots refilled at `perMs` slots a
 * millisecond: the largest `calls - (burst + span × perMs)` over every window from one call to a later one. At most 0
 * when every window held; a call more than the bucket allows anywhere makes it 1.
 */
export function tokenBucketExcess(times: readonly number[], burst: number, perMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let worst = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < sorted.length; i++)
    for (let j = i; j < sorted.length; j++)
      worst = Math.max(worst, j - i + 1 - (burst + (sorted[j]! - sorted[i]!) * perMs));
  return sorted.length === 0 ? 0 : Math.ceil(worst);
}
