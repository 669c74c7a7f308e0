import { z } from 'zod';
import type { Experiment } from './matrix.ts';
import type { CaseResult } from './results.ts';

/** What the reply cache gave one contender: results from it, cases `--cache-only` skipped, cost paid vs replies' cost. */
export const CacheUseSchema = z.object({
  /** Results whose replies all came from the cache. */
  cached: z.number(),
  /** Cases `--cache-only` found no reply for: not called, left out of the results. */
  skipped: z.number(),
  /** Results in all (cached or not). */
  results: z.number(),
  /** What this run paid for the contender's replies, and what they cost when they were paid for. */
  paidUsd: z.number(),
  replyCostUsd: z.number(),
  /** Replies without a price (the provider reported none and the lineup set none): left out of the two sums. */
  unpriced: z.number().optional(),
});
/** What the reply cache gave one contender. */
export type CacheUse = z.infer<typeof CacheUseSchema>;

/** Per contender key: what the reply cache gave it. */
export const CacheSummarySchema = z.record(z.string(), CacheUseSchema);
/** Per contender key: what the reply cache gave it. */
export type CacheSummary = z.infer<typeof CacheSummarySchema>;

/** A result every reply of which came from the cache: no call was made for it. */
export function fromCache(result: CaseResult): boolean {
  return result.cached !== undefined && result.cached.replies > 0 && result.cached.calls === 0;
}

/**
 * Counts, per contender, the results the reply cache answered and the cases it skipped, and the cost paid against the
 * replies' cost; undefined when the run took nothing from the cache and skipped nothing.
 */
export function summarizeCache(
  experiments: readonly Pick<Experiment, 'id' | 'contender'>[],
  results: readonly CaseResult[],
): CacheSummary | undefined {
  const contenderOf = new Map(experiments.map((e) => [e.id, e.contender]));
  const summary: CacheSummary = {};
  let used = false;
  for (const result of results) {
    const key = contenderOf.get(result.experimentId);
    if (key === undefined) continue;
    const use = (summary[key] ??= { cached: 0, skipped: 0, results: 0, paidUsd: 0, replyCostUsd: 0 });
    if (result.skipped) {
      use.skipped++;
      used = true;
      continue;
    }
    use.results++;
    // A failed call got no reply to price: only a reply without one says the prices are unknown.
    if (result.usage.costUsd === null && result.status !== 'error') use.unpriced = (use.unpriced ?? 0) + 1;
    const cost = result.usage.costUsd ?? 0;
    use.replyCostUsd += cost;
    if (result.cached) {
      used = true;
      if (fromCache(result)) use.cached++;
      use.paidUsd += result.cached.paidUsd;
    } else {
      use.paidUsd += cost;
    }
  }
  return used ? summary : undefined;
}
