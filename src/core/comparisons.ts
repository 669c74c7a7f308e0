/**
 * Paired comparisons of a run's contenders on the cases they share: per dataset and across all datasets, each
 * contender against the best (or every pair), on the primary metric, Holm-corrected per dataset; and which
 * contenders are tied with the best. Pure, no Node.
 */
import { z } from 'zod';
import { countedValue, summarize } from './aggregate.ts';
import { designEffect } from './cluster-se.ts';
import { withoutRepeat } from './matrix.ts';
import { fnv1a } from './fnv.ts';
import { comparePaired, holm, resampleMeansTogether } from './paired.ts';
import type { CaseResult } from './results.ts';
import type { SnapshotCore } from './snapshot-core.ts';
import { bootstrapInterval, seededRandom } from './stats.ts';
import { bestIndex, weightedScores, weightValues } from './weights.ts';

/** A paired test's figures, as a comparison within a run and a change between two runs both report them. */
export const PairedTestSchema = z.object({
  /** Cases both have a value for: a case whose metric is null for either is left out of the pair. */
  n: z.number(),
  /** The mean of A − B per case. */
  meanDiff: z.number(),
  ci95: z.tuple([z.number(), z.number()]),
  pValue: z.number(),
  /** Holm-corrected across the tests of its dataset. */
  pAdjusted: z.number(),
  /** `clustered-t`: cases grouped in clusters, tested on the clustered standard error (see `clustering`). */
  test: z.enum(['mcnemar-exact', 'paired-t', 'clustered-t']),
});

/** One paired comparison, A against B (contender keys as in `experiments[].contender`); `dataset` null for all. */
export const ComparisonSchema = z.object({
  dataset: z.string().nullable(),
  metric: z.string(),
  a: z.string(),
  b: z.string(),
  ...PairedTestSchema.shape,
});
/** One paired comparison, A against B. */
export type Comparison = z.infer<typeof ComparisonSchema>;

/** A contender's place in a table as the statistics see it: the best, or tied with it (no significant difference). */
export const StandingMarkSchema = z.object({
  dataset: z.string().nullable(),
  contender: z.string(),
  best: z.boolean(),
  tiedWithBest: z.boolean(),
  /** The comparison with the best, for a contender that is not the best. */
  pAdjusted: z.number().optional(),
  n: z.number().optional(),
});
/** A contender's place in a table as the statistics see it. */
export type StandingMark = z.infer<typeof StandingMarkSchema>;

/**
 * What a run's statistics are built from: the parts of its snapshot they read, and each clustered case's cluster by
 * case key (`clustersOfCases`), which makes its tests and intervals the clustered ones.
 */
export type ComparisonSource = Pick<
  SnapshotCore,
  'runId' | 'metrics' | 'weights' | 'contenders' | 'experiments' | 'results' | 'settings'
> & { clusters?: ReadonlyMap<string, string> };

/** The significance level below which a difference from the best is called real. */
export const ALPHA = 0.05;

/** A metric's value for one result: a failed case counts as wrong (0), a scored case without the metric as no value. */
export function caseValue(r: CaseResult, metric: string, builtIn: boolean): number | null {
  return countedValue(r.status, builtIn ? r.score : r.metrics[metric]);
}

interface Row {
  key: string;
  index: number;
  rank: number | null;
  cost: number | null;
  errors: number;
  /** caseKey → the metric averaged over the case's repeats that have a value. */
  values: Map<string, number>;
}

function rowsOf(source: ComparisonSource, dataset: string | null, metric: string): Row[] {
  const metricNames = source.metrics.map((m) => m.name);
  const builtIn = !metricNames.includes(metric);
  const baseOf = new Map(source.contenders.map((c) => [c.key, withoutRepeat(c).key]));
  const inGroup = source.experiments.filter((e) => dataset === null || e.dataset === dataset);
  const experimentBase = new Map(inGroup.map((e) => [e.id, baseOf.get(e.contender) ?? e.contender]));
  const bases = [...new Set(inGroup.map((e) => experimentBase.get(e.id)!))];
  const results = new Map<string, CaseResult[]>(bases.map((b) => [b, []]));
  for (const r of source.results) {
    const base = experimentBase.get(r.experimentId);
    if (base !== undefined) results.get(base)!.push(r);
  }
  const rows = bases.map((key, index) => {
    const own = results.get(key)!;
    const summary = summarize(own, metricNames, source.settings.parallelism, metric);
    // Sums first, then the cases with repeats divided by their count: no pair per case.
    const values = new Map<string, number>();
    const repeats = new Map<string, number>();
    for (const r of own) {
      const v = caseValue(r, metric, builtIn);
      if (v === null) continue;
      const sum = values.get(r.caseKey);
      if (sum !== undefined) repeats.set(r.caseKey, (repeats.get(r.caseKey) ?? 1) + 1);
      values.set(r.caseKey, (sum ?? 0) + v);
    }
    for (const [k, count] of repeats) values.set(k, values.get(k)! / count);
    return { key, index, summary, values };
  });
  const ranking = source.weights ? 'wscore' : metric;
  const wscores = source.weights
    ? weightedScores(
        rows.map((r) => ({ values: weightValues(r.summary), errors: r.summary.errors })),
        source.weights,
      )
    : undefined;
  return rows
    .map((r, i) => ({
      key: r.key,
      index: r.index,
      rank: wscores ? (wscores[i] ?? null) : (weightValues(r.summary)[ranking] ?? null),
      cost: r.summary.usage.costUsd,
      errors: r.summary.errors,
      values: r.values,
    }))
    .sort(
      (a, b) =>
        (b.rank ?? -1) - (a.rank ?? -1) || (a.cost ?? Infinity) - (b.cost ?? Infinity) || a.index - b.index,
    );
}

/**
 * The cases any row has a value for: the first row's, then each other row's that no row before it has, in the rows'
 * order. Those of the first row are not copied into a set: a table of 100,000 cases made one per table.
 */
function caseUnion(rows: readonly Row[]): string[] {
  const first = rows[0]?.values;
  const cases = first ? [...first.keys()] : [];
  const more = new Set<string>();
  for (const r of rows.slice(1)) for (const k of r.values.keys()) if (!first?.has(k)) more.add(k);
  for (const k of more) cases.push(k);
  return cases;
}

/**
 * Bootstrap means of the rows that have a value on every case, drawn in one pass for all of them (`resampleMeansTogether`),
 * when some value is graded: 0/1 values take the multinomial draw per pair, which is cheaper still.
 */
function resampledTogether(
  rows: readonly Row[],
  cases: readonly string[],
  resamples: number,
  random: () => () => number,
): Map<string, Float64Array> {
  const complete = rows.filter((r) => r.values.size === cases.length);
  const graded = complete.some((r) => [...r.values.values()].some((v) => v !== 0 && v !== 1));
  if (complete.length < 2 || !graded || cases.length < 2) return new Map();
  const columns = complete.map((r) => cases.map((k) => r.values.get(k)!));
  const means = resampleMeansTogether(columns, resamples, random());
  return new Map(complete.map((r, i) => [r.key, means[i]!]));
}

/** The metric comparisons are made on: the primary metric, or `score` when the scorer declares none. */
export function comparedMetric(source: Pick<SnapshotCore, 'metrics'>): string {
  return (source.metrics.find((m) => m.primary) ?? source.metrics[0])?.name ?? 'score';
}

/**
 * A run's paired comparisons and standing marks, per dataset and across all (dataset `null`): each contender against
 * the table's best (as the standings pick it), or every pair with `pairs: 'all'`. Bootstraps are seeded from the run
 * id, so the same run gives the same numbers.
 */
export function compareContenders(
  source: ComparisonSource,
  options: { pairs?: 'best' | 'all'; resamples?: number } = {},
): { comparisons: Comparison[]; standings: StandingMark[] } {
  const metric = comparedMetric(source);
  const datasets = [...new Set(source.experiments.map((e) => e.dataset))];
  const comparisons: Comparison[] = [];
  const standings: StandingMark[] = [];
  const group = (dataset: string | null) => {
    const rows = rowsOf(source, dataset, metric);
    const best = bestIndex(rows);
    const pairs: [Row, Row][] = [];
    if (options.pairs === 'all') rows.forEach((a, i) => rows.slice(i + 1).forEach((b) => pairs.push([a, b])));
    else if (best !== undefined) rows.forEach((b, i) => i !== best && pairs.push([rows[best]!, b]));
    const cases = caseUnion(rows);
    const clusters = source.clusters?.size ? cases.map((k) => source.clusters!.get(k)) : undefined;
    const together = resampledTogether(rows, cases, options.resamples ?? 10_000, () =>
      seededRandom(fnv1a(`${source.runId}|${dataset ?? ''}|${metric}`)),
    );
    const raw = pairs.map(([a, b]) => {
      const [meansA, meansB] = [together.get(a.key), together.get(b.key)];
      const result = comparePaired(
        cases.map((k) => a.values.get(k) ?? null),
        cases.map((k) => b.values.get(k) ?? null),
        {
          seed: fnv1a(`${source.runId}|${dataset ?? ''}|${metric}|${a.key}|${b.key}`),
          resamples: options.resamples,
          ...(clusters ? { clusters } : {}),
          ...(meansA && meansB ? { resampled: meansA.map((m, r) => m - meansB[r]!) } : {}),
        },
      );
      return { dataset, metric, a: a.key, b: b.key, ...result };
    });
    const adjusted = holm(raw.map((c) => c.pValue));
    const own = raw.map((c, i) => ({ ...c, pAdjusted: adjusted[i]! }));
    comparisons.push(...own);
    rows.forEach((row, i) => {
      const vsBest =
        best === undefined || i === best
          ? undefined
          : own.find((c) => c.a === rows[best]!.key && c.b === row.key);
      standings.push({
        dataset,
        contender: row.key,
        best: i === best,
        tiedWithBest: vsBest !== undefined && vsBest.n > 0 && vsBest.pAdjusted >= ALPHA,
        ...(vsBest ? { pAdjusted: vsBest.pAdjusted, n: vsBest.n } : {}),
      });
    });
  };
  datasets.forEach(group);
  // With one dataset, all datasets are that dataset: the same comparisons, not drawn twice.
  if (datasets.length === 1) {
    comparisons.push(...comparisons.map((c) => ({ ...c, dataset: null })));
    standings.push(...standings.map((s) => ({ ...s, dataset: null })));
  } else if (datasets.length > 1) group(null);
  return { comparisons, standings };
}

/** Each contender's per-case differences from the best across all the run's cases, case keys beside them. */
function differencesFromBest(source: ComparisonSource): { keys: string[]; diffs: number[] }[] {
  const rows = rowsOf(source, null, comparedMetric(source));
  const best = bestIndex(rows);
  if (best === undefined) return [];
  return rows.flatMap((row, i) => {
    if (i === best) return [];
    const keys: string[] = [];
    const diffs: number[] = [];
    for (const [k, v] of row.values) {
      const top = rows[best]!.values.get(k);
      if (top === undefined) continue;
      keys.push(k);
      diffs.push(top - v);
    }
    return diffs.length < 2 ? [] : [{ keys, diffs }];
  });
}

const median = (values: number[]) => {
  values.sort((a, b) => a - b);
  const middle = values.length >> 1;
  return values.length % 2 ? values[middle]! : (values[middle - 1]! + values[middle]!) / 2;
};

/**
 * The spread of per-case differences a run showed: across all its cases, the median over each contender paired with
 * the best of the standard deviation of their per-case differences. `undefined` with no pair of two cases or more.
 */
export function differenceSpread(source: ComparisonSource): number | undefined {
  const spreads = differencesFromBest(source).map(({ diffs }) => {
    const mean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
    return Math.sqrt(diffs.reduce((s, d) => s + (d - mean) ** 2, 0) / (diffs.length - 1));
  });
  if (spreads.length === 0) return undefined;
  const spread = median(spreads);
  // No spread at all (every case differed alike, or the contenders answered alike) says nothing of a new run's noise:
  // it would make any difference look detectable.
  return spread > 0 ? spread : undefined;
}

/**
 * The design effect its clusters (`source.clusters`) had on a run's per-case differences from the best: the median
 * over contenders of clustered over independent variance (`designEffect`); 1 without clusters or pairs.
 */
export function differenceDesignEffect(source: ComparisonSource): number {
  const clusters = source.clusters;
  if (!clusters?.size) return 1;
  const effects = differencesFromBest(source).map(({ keys, diffs }) =>
    designEffect(
      diffs,
      keys.map((k) => clusters.get(k)),
    ),
  );
  return effects.length ? median(effects) : 1;
}

/** A 95 % interval of a contender's mean on one dataset in one run (repeats merged): a trend point's whisker. */
export const PointIntervalSchema = z.object({
  contender: z.string(),
  dataset: z.string(),
  ci95: z.tuple([z.number(), z.number()]),
});
/** A 95 % interval of a contender's mean on one dataset in one run. */
export type PointInterval = z.infer<typeof PointIntervalSchema>;

/**
 * Each contender's (repeats merged) 95 % bootstrap interval of its mean `metric` per dataset, the cases the unit: a
 * case's value is the mean of its repeats, a failed one counted 0 and one without a value left out, as the mean
 * counts them. Seeded from the run id; none under two cases.
 */
export function pointIntervals(
  source: Pick<ComparisonSource, 'runId' | 'metrics' | 'contenders' | 'results'> & {
    experiments: readonly { id: string; contender: string; dataset: string }[];
  },
  metric: string,
  resamples = 2000,
): PointInterval[] {
  const builtIn = !source.metrics.some((m) => m.name === metric);
  const baseOf = new Map(source.contenders.map((c) => [c.key, withoutRepeat(c).key]));
  const groupOf = new Map(
    source.experiments.map((e) => [e.id, [baseOf.get(e.contender) ?? e.contender, e.dataset] as const]),
  );
  const sums = new Map<
    string,
    { contender: string; dataset: string; cases: Map<string, [number, number]> }
  >();
  for (const r of source.results) {
    const group = groupOf.get(r.experimentId);
    const value = caseValue(r, metric, builtIn);
    if (!group || value === null) continue;
    const key = `${group[0]}\u0000${group[1]}`;
    const entry = sums.get(key) ?? {
      contender: group[0],
      dataset: group[1],
      cases: new Map<string, [number, number]>(),
    };
    sums.set(key, entry);
    const [sum, count] = entry.cases.get(r.caseKey) ?? [0, 0];
    entry.cases.set(r.caseKey, [sum + value, count + 1]);
  }
  return [...sums.values()].flatMap(({ contender, dataset, cases }) => {
    // In case-key order: results come in the order calls finished, and the draw must not depend on it.
    const values = [...cases].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, [sum, n]]) => sum / n);
    const interval = bootstrapInterval(values, {
      resamples,
      seed: fnv1a(`${source.runId}|${contender}|${dataset}|${metric}`),
    });
    return interval ? [{ contender, dataset, ci95: [interval.low, interval.high] as [number, number] }] : [];
  });
}
