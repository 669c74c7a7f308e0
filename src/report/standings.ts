import { meanSkippingNull, summarize, type Summary } from '../core/aggregate.ts';
import { ALPHA, comparedMetric, type Comparison, type StandingMark } from '../core/comparisons.ts';
import { groupBy } from '../core/group.ts';
import { withoutRepeat } from '../core/matrix.ts';
import { separated, tInterval, type Interval } from '../core/stats.ts';
import {
  bestIndex,
  byCost,
  bestValueIndex,
  weightValues,
  weightedScores,
  type BestCandidate,
} from '../core/weights.ts';
import { comparisonsOf, type Snapshot } from '../core/snapshot.ts';

export { weightValues };

type Contender = Snapshot['contenders'][number];
type Result = Snapshot['results'][number];

/** One row of a standings table: a contender over some of the run's cases, its figures and its ranking value. */
export interface Standing {
  /** The dataset or variant the row covers; `''` across all cases. */
  group: string;
  contender: Contender;
  contenderIndex: number;
  experimentIds: string[];
  summary: Summary;
  /** `undefined` without weights; `null` when a weighted value is missing. */
  wscore: number | null | undefined;
  /** What the table ranks by: wscore with weights, else the primary metric. */
  rank: number | null;
  /** With `--repeat`: each repeat's figures over the row's cases, in repeat order. */
  repeats?: Summary[];
  /** With `--repeat`: the 95 % t-interval of score, wscore and each metric over the repeats' means. */
  intervals?: Record<string, Interval | null>;
  /** Tied with the table's best: their paired difference is not significant (Holm-adjusted p, paired cases). */
  tie?: { pAdjusted: number; n: number; metric: string };
  /** The paired comparison with the table's best, for a row that is not the best; absent where none was made. */
  vsBest?: VersusBest;
}

/** A row's paired difference from its table's best on the compared metric, as the row's value minus the best's. */
export interface VersusBest {
  metric: string;
  /** The row's mean minus the best's over the cases both have a value for (0..1 scale: −0.2 is 20 points below). */
  diff: number;
  ci95: [number, number];
  pAdjusted: number;
  n: number;
  /** `worse` or `better` when the difference is significant (Holm-adjusted p < 0.05), else `tied`. */
  verdict: 'tied' | 'worse' | 'better';
}

/** One ranked table of a group, with the best row and the best value (the cheapest within 2 points of the best). */
export interface StandingsTable {
  group: string;
  rows: Standing[];
  best?: Standing;
  bestValue?: Standing;
  /** With `--repeat`: the runner-up whose interval overlaps the best's, so the two are not separated. */
  bestTie?: Standing;
  /** With `--repeat`: the next best value, when its interval overlaps the best value's. */
  bestValueTie?: Standing;
  /** The rows tied with the best by the paired comparisons, in rank order; absent where none were made. */
  tied?: Standing[];
}

/** What every display ranks by, and the standings per dataset, across all cases and per variant. */
export interface Standings {
  /** `wscore`, or the primary metric's name (`score` when the scorer declares none). */
  ranking: string;
  datasets: StandingsTable[];
  overall: StandingsTable;
  variants: StandingsTable[];
}

/** Figures over cases from several experiments: time adds up; p95 is the mean of each experiment's. */
export function summarizeAcross(
  parts: readonly Result[][],
  metricNames: readonly string[],
  slots = 1,
  compared?: string,
): Summary {
  const all = summarize(parts.flat(), metricNames, slots, compared);
  if (parts.length <= 1) return all;
  const each = parts.map((p) => summarize(p, metricNames, slots, compared));
  const times = each.map((s) => s.time).filter((t): t is number => t !== null);
  return {
    ...all,
    time: times.length ? times.reduce((a, b) => a + b, 0) : null,
    p95: meanSkippingNull(each.map((s) => s.p95)),
  };
}

/** Each row's 95 % t-intervals over its repeats: score, each metric and, with weights, wscore per repeat's table. */
function intervalsOf(
  rows: readonly Omit<Standing, 'wscore' | 'rank'>[],
  weights: Record<string, number> | undefined,
): (Record<string, Interval | null> | undefined)[] {
  const times = Math.min(...rows.map((r) => r.repeats?.length ?? 0));
  if (!(times > 1)) return rows.map(() => undefined);
  const wscores = weights
    ? Array.from({ length: times }, (_, i) =>
        weightedScores(
          rows.map((r) => ({ values: weightValues(r.repeats![i]!), errors: r.repeats![i]!.errors })),
          weights,
        ),
      )
    : undefined;
  const present = (values: (number | null | undefined)[]) =>
    values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return rows.map((row, index) => {
    const each = row.repeats!.slice(0, times);
    const names = new Set(['score', ...each.flatMap((s) => Object.keys(s.metrics))]);
    const intervals: Record<string, Interval | null> = {};
    for (const name of names) intervals[name] = tInterval(present(each.map((s) => weightValues(s)[name])));
    if (wscores) intervals.wscore = tInterval(present(wscores.map((w) => w[index])));
    return intervals;
  });
}

/** The row that would win if `winner` were not there, when the two rows' intervals overlap. */
function tieOf(
  ranked: readonly Standing[],
  candidates: readonly BestCandidate[],
  winner: number | undefined,
  pick: (rows: readonly BestCandidate[]) => number | undefined,
  ranking: string,
): Standing | undefined {
  if (winner === undefined) return undefined;
  const others = candidates.map((c, i) => (i === winner ? { ...c, rank: null } : c));
  const next = pick(others);
  if (next === undefined) return undefined;
  const [a, b] = [ranked[winner]!.intervals?.[ranking], ranked[next]!.intervals?.[ranking]];
  return a && b && !separated(a, b) ? ranked[next] : undefined;
}

/**
 * Marks the rows tied with the best (setting their `tie`) from the paired comparisons' marks, and returns them; none
 * when the comparisons were made against another best than this table's.
 */
function tiesOf(
  ranked: Standing[],
  best: number | undefined,
  marks: readonly StandingMark[] | undefined,
  metric: string,
): Standing[] | undefined {
  if (best === undefined || !marks?.length) return undefined;
  const byKey = new Map(marks.map((m) => [m.contender, m]));
  if (!byKey.get(ranked[best]!.contender.key)?.best) return undefined;
  const tied = ranked.filter((r) => byKey.get(r.contender.key)?.tiedWithBest);
  for (const r of tied) {
    const m = byKey.get(r.contender.key)!;
    r.tie = { pAdjusted: m.pAdjusted ?? 1, n: m.n ?? 0, metric };
  }
  return tied;
}

/**
 * Sets each row's `vsBest` from the paired comparisons with the table's best (either way round); none when the
 * comparisons were made against another best than this table's.
 */
function versusBest(
  ranked: Standing[],
  best: number | undefined,
  marks: readonly StandingMark[] | undefined,
  comparisons: readonly Comparison[],
  metric: string,
): void {
  if (best === undefined || !marks?.length) return;
  const bestKey = ranked[best]!.contender.key;
  if (!marks.some((m) => m.contender === bestKey && m.best)) return;
  for (const row of ranked) {
    if (row === ranked[best]) continue;
    const key = row.contender.key;
    const c = comparisons.find((x) => (x.a === bestKey && x.b === key) || (x.a === key && x.b === bestKey));
    if (!c || c.n === 0) continue;
    // A comparison holds A − B: the row's difference from the best is B − A when the best is A.
    const flip = c.a === bestKey ? -1 : 1;
    const diff = flip * c.meanDiff;
    const ends = [flip * c.ci95[0], flip * c.ci95[1]].sort((x, y) => x - y) as [number, number];
    const verdict = c.pAdjusted >= ALPHA ? 'tied' : diff < 0 ? 'worse' : 'better';
    row.vsBest = { metric, diff, ci95: ends, pAdjusted: c.pAdjusted, n: c.n, verdict };
  }
}

function rankTable(
  group: string,
  rows: Omit<Standing, 'wscore' | 'rank'>[],
  snapshot: Snapshot,
  ranking: string,
  marks?: readonly StandingMark[],
  comparisons: readonly Comparison[] = [],
): StandingsTable {
  const intervals = intervalsOf(rows, snapshot.weights);
  const scores = snapshot.weights
    ? weightedScores(
        rows.map((r) => ({ values: weightValues(r.summary), errors: r.summary.errors })),
        snapshot.weights,
      )
    : undefined;
  const ranked: Standing[] = rows.map((r, i) => ({
    ...r,
    ...(intervals[i] ? { intervals: intervals[i] } : {}),
    wscore: scores?.[i],
    rank: scores ? (scores[i] ?? null) : (weightValues(r.summary)[ranking] ?? null),
  }));
  ranked.sort(
    (a, b) =>
      (b.rank ?? -1) - (a.rank ?? -1) ||
      byCost(a.summary.usage.costUsd, b.summary.usage.costUsd) ||
      a.contenderIndex - b.contenderIndex,
  );
  const candidates: BestCandidate[] = ranked.map((r) => ({
    rank: r.rank,
    cost: r.summary.usage.costUsd,
    errors: r.summary.errors,
  }));
  const best = bestIndex(candidates);
  const tied = tiesOf(ranked, best, marks, comparedMetric(snapshot));
  versusBest(ranked, best, marks, comparisons, comparedMetric(snapshot));
  // The tied are as good as the best, as far as the cases tell: the best value is the cheapest of them too.
  const bestRank = best === undefined ? null : ranked[best]!.rank;
  const value = bestValueIndex(candidates.map((c, i) => (ranked[i]!.tie ? { ...c, rank: bestRank } : c)));
  const bestTie = tieOf(ranked, candidates, best, bestIndex, ranking);
  const bestValueTie = tieOf(ranked, candidates, value, (c) => bestValueIndex(c), ranking);
  return {
    group,
    rows: ranked,
    ...(best !== undefined ? { best: ranked[best] } : {}),
    ...(value !== undefined ? { bestValue: ranked[value] } : {}),
    ...(bestTie ? { bestTie } : {}),
    ...(bestValueTie ? { bestValueTie } : {}),
    ...(tied ? { tied } : {}),
  };
}

/** Ranks a snapshot's contenders per dataset, across all cases and per variant, each table on its own scale. */
export function standings(snapshot: Snapshot): Standings {
  const metricNames = snapshot.metrics.map((m) => m.name);
  const primary = snapshot.metrics.find((m) => m.primary) ?? snapshot.metrics[0];
  const ranking = snapshot.weights ? 'wscore' : (primary?.name ?? 'score');
  // The metric the paired tests compare: its mean counts a failed case as they do, so the ranking agrees with them.
  const compared = comparedMetric(snapshot);
  const variantOf = new Map(snapshot.cases.map((c) => [c.key, c.variant]));
  const resultsOf = groupBy(snapshot.results, (r) => r.experimentId);
  type Experiment = Snapshot['experiments'][number];
  // `--repeat` runs a contender as several (`… #2`): a row holds all of them, with each repeat's figures.
  const repeatOf = new Map(snapshot.contenders.map((c) => [c.key, c.repeat]));
  const bases = new Map<string, { contender: Contender; contenderIndex: number; keys: Set<string> }>();
  snapshot.contenders.forEach((c, contenderIndex) => {
    const base = withoutRepeat(c);
    const known = bases.get(base.key);
    if (known) known.keys.add(c.key);
    else bases.set(base.key, { contender: c.repeat ? base : c, contenderIndex, keys: new Set([c.key]) });
  });
  // A table's rows: each contender with an experiment in the table, over the results the table keeps.
  const statistics = snapshot.experiments.length ? comparisonsOf(snapshot) : undefined;
  const marks = statistics?.standings ?? [];
  const table = (
    group: string,
    inTable: (e: Experiment) => boolean,
    keep: (r: Result) => boolean,
    dataset?: string | null,
  ) => {
    const rows = [...bases.values()].flatMap(({ contender, contenderIndex, keys }) => {
      const own = snapshot.experiments.filter((e) => keys.has(e.contender) && inTable(e));
      if (own.length === 0) return [];
      const partOf = (e: Experiment) => (resultsOf.get(e.id) ?? []).filter(keep);
      const parts = own.map(partOf).filter((p) => p.length);
      const summary = summarizeAcross(parts, metricNames, snapshot.settings.parallelism, compared);
      const byRepeat = groupBy(own, (e) => repeatOf.get(e.contender));
      const repeats =
        keys.size > 1
          ? [...byRepeat.values()].map((list) =>
              summarizeAcross(
                list.map(partOf).filter((p) => p.length),
                metricNames,
                snapshot.settings.parallelism,
                compared,
              ),
            )
          : undefined;
      return [
        {
          group,
          contender,
          contenderIndex,
          experimentIds: own.map((e) => e.id),
          summary,
          ...(repeats ? { repeats } : {}),
        },
      ];
    });
    const own = dataset === undefined ? undefined : marks.filter((m) => m.dataset === dataset);
    const tests =
      dataset === undefined ? [] : (statistics?.comparisons ?? []).filter((c) => c.dataset === dataset);
    return rankTable(group, rows, snapshot, ranking, own, tests);
  };
  const datasets = [...new Set(snapshot.experiments.map((e) => e.dataset))].map((d) =>
    table(
      d,
      (e) => e.dataset === d,
      () => true,
      d,
    ),
  );
  const variants = [...new Set(snapshot.cases.map((c) => c.variant))].map((v) =>
    table(
      v,
      (e) => e.caseKeys.some((k) => variantOf.get(k) === v),
      (r) => variantOf.get(r.caseKey) === v,
    ),
  );
  const overall = table(
    '',
    () => true,
    () => true,
    null,
  );
  return { ranking, datasets, overall, variants };
}
