/**
 * Consistency across `--repeat` runs of a contender: per case, whether every repeat got it right (pass^k) and whether
 * the repeats disagreed (a flaky case). Pure, no Node.
 */
import { z } from 'zod';
import { caseValue, comparedMetric, type ComparisonSource } from './comparisons.ts';
import { withoutRepeat } from './matrix.ts';

/** A contender's consistency over its k repeats: cases right every time (pass^k) and cases the repeats disagree on. */
export const ConsistencySchema = z.object({
  contender: z.string(),
  /** Repeats per case. */
  k: z.number(),
  /** Cases with a value in at least two repeats. */
  cases: z.number(),
  /** The share of those cases right (full marks) in every repeat. */
  passK: z.number(),
  /** Case keys right in some repeats and wrong in others, in case-key order. */
  flaky: z.array(z.string()),
});
/** A contender's consistency over its repeats. */
export type Consistency = z.infer<typeof ConsistencySchema>;

/** Full marks: a repeat that got the case right. */
const isRight = (v: number) => v >= 1 - 1e-9;

/**
 * Each repeated contender's pass^k and flaky cases, on the primary metric; a failed case counts as wrong, a case
 * without a value in a repeat is judged on the repeats that have one. Empty without `--repeat`.
 */
export function consistencyOf(source: ComparisonSource): Consistency[] {
  const metric = comparedMetric(source);
  const builtIn = !source.metrics.some((m) => m.name === metric);
  const baseOf = new Map(source.contenders.map((c) => [c.key, withoutRepeat(c).key]));
  const repeated = new Map<string, number>();
  for (const c of source.contenders)
    if (c.repeat) repeated.set(baseOf.get(c.key)!, (repeated.get(baseOf.get(c.key)!) ?? 0) + 1);
  const contenderOf = new Map(source.experiments.map((e) => [e.id, baseOf.get(e.contender) ?? e.contender]));
  const outcomes = new Map<string, Map<string, boolean[]>>();
  for (const r of source.results) {
    const contender = contenderOf.get(r.experimentId);
    if (contender === undefined || !repeated.has(contender)) continue;
    const value = caseValue(r, metric, builtIn);
    if (value === null) continue;
    const byCase = outcomes.get(contender) ?? new Map<string, boolean[]>();
    outcomes.set(contender, byCase);
    byCase.set(r.caseKey, [...(byCase.get(r.caseKey) ?? []), isRight(value)]);
  }
  return [...repeated].flatMap(([contender, k]) => {
    if (k < 2) return [];
    const judged = [...(outcomes.get(contender) ?? new Map<string, boolean[]>())].filter(
      ([, o]) => o.length >= 2,
    );
    const always = judged.filter(([, o]) => o.every(Boolean)).length;
    // In case-key order: results arrive in the order the calls finished, which differs from run to run.
    const flaky = judged
      .filter(([, o]) => o.some(Boolean) && !o.every(Boolean))
      .map(([key]) => key)
      .sort();
    return [{ contender, k, cases: judged.length, passK: judged.length ? always / judged.length : 0, flaky }];
  });
}
