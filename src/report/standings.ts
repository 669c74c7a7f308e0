import { meanSkippingNull, summarize, type Summary } from '../core/aggregate.ts';
import { groupBy } from '../core/group.ts';
import { bestIndex, bestValueIndex, weightValues, weightedScores } from '../core/weights.ts';
import type { Snapshot } from '../core/snapshot.ts';

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
}

/** One ranked table of a group, with the best row and the best value (the cheapest within 2 points of the best). */
export interface StandingsTable {
  group: string;
  rows: Standing[];
  best?: Standing;
  bestValue?: Standing;
}

/** What every display ranks by, and the standings per dataset, across all cases and per variant. */
export interface Standings {
  /** `wscore`, or the primary metric's name (`score` when the scorer declares none). */
  ranking: string;
  datasets: StandingsTable[];
  overall: StandingsTable;
  variants: StandingsTable[];
}

/** Figures over cases from several experiments: time adds up; p95 is the mean of each experiment's (R2). */
export function summarizeAcross(
  parts: readonly Result[][],
  metricNames: readonly string[],
  slots = 1,
): Summary {
  const all = summarize(parts.flat(), metricNames, slots);
  if (parts.length <= 1) return all;
  const each = parts.map((p) => summarize(p, metricNames, slots));
  const times = each.map((s) => s.time).filter((t): t is number => t !== null);
  return {
    ...all,
    time: times.length ? times.reduce((a, b) => a + b, 0) : null,
    p95: meanSkippingNull(each.map((s) => s.p95)),
  };
}

function rankTable(
  group: string,
  rows: Omit<Standing, 'wscore' | 'rank'>[],
  snapshot: Snapshot,
  ranking: string,
): StandingsTable {
  const scores = snapshot.weights
    ? weightedScores(
        rows.map((r) => ({ values: weightValues(r.summary), errors: r.summary.errors })),
        snapshot.weights,
      )
    : undefined;
  const ranked: Standing[] = rows.map((r, i) => ({
    ...r,
    wscore: scores?.[i],
    rank: scores ? (scores[i] ?? null) : (weightValues(r.summary)[ranking] ?? null),
  }));
  ranked.sort(
    (a, b) =>
      (b.rank ?? -1) - (a.rank ?? -1) ||
      (a.summary.usage.costUsd ?? Infinity) - (b.summary.usage.costUsd ?? Infinity) ||
      a.contenderIndex - b.contenderIndex,
  );
  const candidates = ranked.map((r) => ({
    rank: r.rank,
    cost: r.summary.usage.costUsd,
    errors: r.summary.errors,
  }));
  const best = bestIndex(candidates);
  const value = bestValueIndex(candidates);
  return {
    group,
    rows: ranked,
    ...(best !== undefined ? { best: ranked[best] } : {}),
    ...(value !== undefined ? { bestValue: ranked[value] } : {}),
  };
}

/** Ranks a snapshot's contenders per dataset, across all cases and per variant, each table on its own scale. */
export function standings(snapshot: Snapshot): Standings {
  const metricNames = snapshot.metrics.map((m) => m.name);
  const primary = snapshot.metrics.find((m) => m.primary) ?? snapshot.metrics[0];
  const ranking = snapshot.weights ? 'wscore' : (primary?.name ?? 'score');
  const variantOf = new Map(snapshot.cases.map((c) => [c.key, c.variant]));
  const resultsOf = groupBy(snapshot.results, (r) => r.experimentId);
  type Experiment = Snapshot['experiments'][number];
  // A table's rows: each contender with an experiment in the table, over the results the table keeps.
  const table = (group: string, inTable: (e: Experiment) => boolean, keep: (r: Result) => boolean) => {
    const rows = snapshot.contenders.flatMap((contender, contenderIndex) => {
      const own = snapshot.experiments.filter((e) => e.contender === contender.key && inTable(e));
      if (own.length === 0) return [];
      const parts = own.map((e) => (resultsOf.get(e.id) ?? []).filter(keep)).filter((p) => p.length);
      const summary = summarizeAcross(parts, metricNames, snapshot.settings.parallelism);
      return [{ group, contender, contenderIndex, experimentIds: own.map((e) => e.id), summary }];
    });
    return rankTable(group, rows, snapshot, ranking);
  };
  const datasets = [...new Set(snapshot.experiments.map((e) => e.dataset))].map((d) =>
    table(
      d,
      (e) => e.dataset === d,
      () => true,
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
  );
  return { ranking, datasets, overall, variants };
}
