/**
 * Keeps `value` under `key`, dropping the oldest kept values until they weigh at most `budget` in all by `weight`
 * (the one just kept stays, however heavy): a count of snapshots would let eight runs of 20,000 results hold a
 * gigabyte, a weight in results holds the view's memory to what the budget allows.
 */
export function keep<K, V>(
  kept: Map<K, V>,
  key: K,
  value: V,
  budget: number,
  weight: (v: V) => number,
): void {
  kept.delete(key);
  kept.set(key, value);
  let held = 0;
  for (const v of kept.values()) held += weight(v);
  for (const [k, v] of kept) {
    if (held <= budget || k === key) break;
    kept.delete(k);
    held -= weight(v);
  }
}

/** Results a snapshot holds: what a kept run view weighs. */
export const resultsIn = (v: { snapshot: { results: readonly unknown[] } }): number =>
  v.snapshot.results.length;
