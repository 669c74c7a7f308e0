/**
 * Consistency across `--repeat` runs of a contender: per case, whether every repeat got it right (pass^k) and whether
 * the repeats disagreed (a flaky case); and across a schedule's runs, the cases that flipped most. Pure, no Node.
 */
import { z } from 'zod';
import { caseValue, comparedMetric, type ComparisonSource } from './comparisons.ts';
import { withoutRepeat } from './matrix.ts';
import type { RunDigest } from './run-change.ts';

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
  /**
   * The contender's own noise: each case's standard deviation across its repeats, averaged over the cases with a
   * value in two repeats or more (absent from snapshots saved before it existed).
   */
  spread: z.number().optional(),
});
/** A contender's consistency over its repeats. */
export type Consistency = z.infer<typeof ConsistencySchema>;

/** Full marks: a repeat that got the case right. */
const isRight = (v: number) => v >= 1 - 1e-9;

/**
 * Each repeated contender's pass^k, flaky cases and own noise (the mean of its cases' spread across repeats), on the
 * primary metric; a failed case counts as wrong (0), a case without a value in a repeat is judged on the repeats
 * that have one. Empty without `--repeat`.
 */
export function consistencyOf(source: ComparisonSource): Consistency[] {
  const repeated = new Map<string, number>();
  for (const c of source.contenders) {
    const base = withoutRepeat(c).key;
    if (c.repeat) repeated.set(base, (repeated.get(base) ?? 0) + 1);
  }
  const values = repeatValues(source);
  return [...repeated].flatMap(([contender, k]) => {
    if (k < 2) return [];
    const judged = [...(values.get(contender) ?? new Map<string, number[]>())]
      .filter(([, v]) => v.length >= 2)
      .map(([key, v]) => [key, v.map(isRight)] as const);
    const always = judged.filter(([, o]) => o.every(Boolean)).length;
    // In case-key order: results arrive in the order the calls finished, which differs from run to run.
    const flaky = judged
      .filter(([, o]) => o.some(Boolean) && !o.every(Boolean))
      .map(([key]) => key)
      .sort();
    const spreads = [...(values.get(contender) ?? new Map<string, number[]>()).values()].flatMap((v) => {
      const sd = standardDeviation(v);
      return sd === undefined ? [] : [sd];
    });
    const spread = spreads.length ? spreads.reduce((a, b) => a + b, 0) / spreads.length : undefined;
    return [
      {
        contender,
        k,
        cases: judged.length,
        passK: judged.length ? always / judged.length : 0,
        flaky,
        ...(spread === undefined ? {} : { spread }),
      },
    ];
  });
}

/** The sample standard deviation (n − 1); `undefined` under two values. */
function standardDeviation(values: readonly number[]): number | undefined {
  if (values.length < 2) return undefined;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
}

/**
 * Each repeated contender's primary metric per case, one value per repeat that has one (a failed case 0), keyed by
 * the contender without its repeat.
 */
function repeatValues(source: ComparisonSource): Map<string, Map<string, number[]>> {
  const metric = comparedMetric(source);
  const builtIn = !source.metrics.some((m) => m.name === metric);
  const baseOf = new Map(source.contenders.flatMap((c) => (c.repeat ? [[c.key, withoutRepeat(c).key]] : [])));
  const contenderOf = new Map(source.experiments.map((e) => [e.id, baseOf.get(e.contender)]));
  const values = new Map<string, Map<string, number[]>>();
  for (const r of source.results) {
    const contender = contenderOf.get(r.experimentId);
    if (contender === undefined) continue;
    const value = caseValue(r, metric, builtIn);
    if (value === null) continue;
    const byCase = values.get(contender) ?? new Map<string, number[]>();
    values.set(contender, byCase);
    byCase.set(r.caseKey, [...(byCase.get(r.caseKey) ?? []), value]);
  }
  return values;
}

/** Decimals a case's spread keeps in the snapshot: a tenth of a point, and a small file. */
const SPREAD_DECIMALS = 3;

/**
 * Per case, each repeated contender's standard deviation across its repeats, where it is not 0 (repeats that
 * agree, the usual case of a 0/1 metric, are left out so the snapshot stays small): a case's own noise.
 */
export function caseSpreads(source: ComparisonSource): Map<string, Record<string, number>> {
  const byCase = new Map<string, Record<string, number>>();
  for (const [contender, cases] of repeatValues(source)) {
    for (const [key, values] of cases) {
      const sd = standardDeviation(values);
      if (sd === undefined || sd === 0) continue;
      byCase.set(key, { ...byCase.get(key), [contender]: Number(sd.toFixed(SPREAD_DECIMALS)) });
    }
  }
  return byCase;
}

/** A case whose outcome flipped between runs (right → wrong or back), for one contender, and how often it did. */
export const CaseFlipsSchema = z.object({
  contender: z.string(),
  dataset: z.string(),
  caseKey: z.string(),
  /** Changes of outcome between consecutive runs that judged the case unedited. */
  flips: z.number(),
  /** Runs that judged the case (it had a value). */
  runs: z.number(),
  /** Right (full marks) in the newest of them. */
  right: z.boolean(),
});
/** A case whose outcome flipped between runs, and how often. */
export type CaseFlips = z.infer<typeof CaseFlipsSchema>;

/**
 * The cases that flipped between right and wrong over runs given oldest first, most flips first (then by contender,
 * dataset and case key), each flip counted between consecutive runs that judged the case; an edit of the case (its
 * content hash changed) is no flip. A repeated contender's case is right in a run when every repeat got it right.
 */
export function flipsAcrossRuns(
  digests: readonly Pick<RunDigest, 'contenders' | 'cases' | 'perCase'>[],
): CaseFlips[] {
  const seen = new Map<string, CaseFlips & { hash: string }>();
  for (const digest of digests) {
    const baseOf = new Map(digest.contenders.map((c) => [c.key, withoutRepeat(c).key]));
    // Per contender (repeats merged), dataset and case: right in every repeat that has a value.
    const outcomes = new Map<
      string,
      { contender: string; dataset: string; caseKey: string; right: boolean }
    >();
    for (const experiment of digest.perCase ?? []) {
      const contender = baseOf.get(experiment.contender) ?? experiment.contender;
      for (const [caseKey, value] of Object.entries(experiment.values)) {
        if (value === null) continue;
        const key = `${contender}\u0000${experiment.dataset}\u0000${caseKey}`;
        const before = outcomes.get(key);
        const right = isRight(value) && (before?.right ?? true);
        outcomes.set(key, { contender, dataset: experiment.dataset, caseKey, right });
      }
    }
    for (const [key, now] of outcomes) {
      const hash = digest.cases[now.dataset]?.[now.caseKey] ?? '';
      const then = seen.get(key);
      const edited = then !== undefined && then.hash !== '' && hash !== '' && then.hash !== hash;
      const flipped = then !== undefined && !edited && then.right !== now.right;
      seen.set(key, {
        ...now,
        flips: (then?.flips ?? 0) + (flipped ? 1 : 0),
        runs: (then?.runs ?? 0) + 1,
        hash,
      });
    }
  }
  return [...seen.values()]
    .filter((c) => c.flips > 0)
    .sort(
      (a, b) =>
        b.flips - a.flips ||
        a.contender.localeCompare(b.contender) ||
        a.dataset.localeCompare(b.dataset) ||
        a.caseKey.localeCompare(b.caseKey),
    )
    .map(({ contender, dataset, caseKey, flips, runs, right }) => ({
      contender,
      dataset,
      caseKey,
      flips,
      runs,
      right,
    }));
}
