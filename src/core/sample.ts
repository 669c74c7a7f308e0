/**
 * `--sample N`: a deterministic sample of N cases per dataset for a quick pull-request check, stratified by variant
 * (each variant keeps its share, the remainders to the largest fractions) and seeded (`--seed`): the same suite and
 * seed give the same cases, and a case added to the suite moves few others in or out, since each case's rank is a
 * hash of the seed and its key alone.
 */
import { fnv1a } from './fnv.ts';

/** What sampling needs of a case. */
export interface Sampled {
  key: string;
  dataset: string;
  variant: string;
}

/** A case's rank under a seed: the 32-bit FNV-1a hash of `seed:key`. */
function rank(seed: number, key: string): number {
  return fnv1a(`${seed}:${key}`);
}

/** How many of each variant's cases a sample of `n` takes: proportional, remainders to the largest fractions. */
export function quotas(sizes: ReadonlyMap<string, number>, n: number): Map<string, number> {
  const total = [...sizes.values()].reduce((s, v) => s + v, 0);
  if (n >= total) return new Map(sizes);
  const exact = [...sizes].map(([variant, size]) => ({ variant, share: (size * n) / total }));
  const taken = new Map(exact.map(({ variant, share }) => [variant, Math.floor(share)]));
  let left = n - [...taken.values()].reduce((s, v) => s + v, 0);
  const byRemainder = [...exact].sort(
    (a, b) =>
      b.share - Math.floor(b.share) - (a.share - Math.floor(a.share)) || a.variant.localeCompare(b.variant),
  );
  for (const { variant } of byRemainder) {
    if (left === 0) break;
    taken.set(variant, taken.get(variant)! + 1);
    left--;
  }
  return taken;
}

/** A sample of `n` cases per dataset (all of a smaller dataset), in the order the cases came. */
export function sampleCases<T extends Sampled>(cases: readonly T[], n: number, seed: number): T[] {
  const strata = new Map<string, T[]>();
  for (const c of cases) {
    const id = `${c.dataset}\u0000${c.variant}`;
    strata.set(id, [...(strata.get(id) ?? []), c]);
  }
  const keep = new Set<string>();
  const datasets = new Set(cases.map((c) => c.dataset));
  for (const dataset of datasets) {
    const sizes = new Map(
      [...strata].filter(([id]) => id.startsWith(`${dataset}\u0000`)).map(([id, list]) => [id, list.length]),
    );
    for (const [id, quota] of quotas(sizes, n)) {
      const ranked = [...strata.get(id)!].sort((a, b) => rank(seed, a.key) - rank(seed, b.key));
      for (const c of ranked.slice(0, quota)) keep.add(c.key);
    }
  }
  return cases.filter((c) => keep.has(c.key));
}
