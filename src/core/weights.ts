import type { Summary } from './aggregate.ts';

/** The columns a weight may name besides the scorer's own metrics; tokens are not among them. */
export const WEIGHT_COLUMNS = ['score', 'errors', 'time', 'cost', 'latency', 'p95'] as const;

/** Columns placed on a log scale between the lowest and highest value in a table, so each doubling costs the same. */
export const LOG_SCALED: readonly string[] = ['time', 'cost', 'latency', 'p95'];

/** One refused weight: its key, its value and why. */
export interface WeightProblem {
  key: string;
  value: unknown;
  problem: string;
}

/** Checks `weighted_score.weights` before any call: known columns or scorer metrics only, each a non-zero number. */
export function weightProblems(
  weights: Record<string, unknown>,
  metricNames: readonly string[],
): WeightProblem[] {
  const allowed = [...new Set([...WEIGHT_COLUMNS, ...metricNames])];
  const problems: WeightProblem[] = [];
  for (const [key, value] of Object.entries(weights)) {
    if (!allowed.includes(key)) {
      problems.push({ key, value, problem: `cannot be weighted (weight one of ${allowed.join(', ')})` });
    } else if (typeof value !== 'number' || !Number.isFinite(value)) {
      problems.push({ key, value, problem: 'a weight is a number; negative means lower is better' });
    } else if (value === 0) {
      // A zero weight would count for nothing and has no direction; saying so beats a silent no-op.
      problems.push({ key, value, problem: 'a weight of 0 counts for nothing; remove the key instead' });
    }
  }
  return problems;
}

/** Which way a weighted column is good: `errors` is always better low; the others follow their weight's sign. */
export function direction(key: string, weight: number): 'high' | 'low' {
  return key === 'errors' || weight < 0 ? 'low' : 'high';
}

/** Each weighted column's direction and real share of the score, |w|/Σ|w|, in the order written. */
export function weightShares(
  weights: Record<string, number>,
): { key: string; weight: number; direction: 'high' | 'low'; share: number }[] {
  const total = Object.values(weights).reduce((sum, w) => sum + Math.abs(w), 0);
  return Object.entries(weights).map(([key, weight]) => ({
    key,
    weight,
    direction: direction(key, weight),
    share: total ? Math.abs(weight) / total : 0,
  }));
}

/** Points (in 0..1) that errors take off the total: none for none, 0.20 for one, 0.25 for two, 0.30 for three… */
export function errorPenalty(errors: number): number {
  return errors > 0 ? 0.15 + 0.05 * errors : 0;
}

/**
 * Each value's place on a log scale from the lowest to the highest, in 0..1, so each doubling moves it the same.
 * Zero (a free model) counts as half the lowest positive value: one doubling below the cheapest. All equal: all 0.
 */
export function logPositions(values: readonly number[]): number[] {
  const positive = values.filter((v) => v > 0);
  const floor = positive.length ? Math.min(...positive) / 2 : 1;
  const logs = values.map((v) => Math.log(v > 0 ? v : floor));
  const lo = Math.min(...logs);
  const hi = Math.max(...logs);
  return logs.map((l) => (hi > lo ? (l - lo) / (hi - lo) : 0));
}

/** What the weighted score reads of one row of a table: each weighted column's value (`null` when missing) and the errors. */
export interface WeightInput {
  values: Record<string, number | null | undefined>;
  errors: number;
}

const clamp = (v: number) => Math.min(1, Math.max(0, v));

/** The wscore of each row of one table (0..1), or `null` for a row missing a weighted value. */
export function weightedScores(
  rows: readonly WeightInput[],
  weights: Record<string, number>,
): (number | null)[] {
  const keys = Object.keys(weights).filter((k) => k !== 'errors');
  const total = Object.values(weights).reduce((sum, w) => sum + Math.abs(w), 0);
  const present = (row: WeightInput, key: string) => {
    const v = row.values[key];
    return typeof v === 'number' && Number.isFinite(v);
  };
  const complete = rows.map((row) => keys.every((k) => present(row, k)));
  // The scale spans every value in the column, as the table shows them.
  const positions = new Map<string, number[]>();
  for (const key of keys.filter((k) => LOG_SCALED.includes(k))) {
    const indexes = rows.flatMap((r, i) => (present(r, key) ? [i] : []));
    const scale = logPositions(indexes.map((i) => rows[i]!.values[key] as number));
    const at = new Array<number>(rows.length).fill(0);
    indexes.forEach((rowIndex, j) => (at[rowIndex] = scale[j]!));
    positions.set(key, at);
  }
  return rows.map((row, i) => {
    if (!complete[i] || total === 0) return null;
    let sum = 0;
    for (const key of keys) {
      const w = weights[key]!;
      const position = positions.get(key)?.[i] ?? clamp(row.values[key] as number);
      sum += Math.abs(w) * (w < 0 ? 1 - position : position);
    }
    if (!('errors' in weights)) return sum / total;
    // No errors earns the errors share in full; any error forfeits it and takes points off the total too.
    if (row.errors === 0) sum += Math.abs(weights.errors ?? 0);
    return Math.max(0, sum / total - errorPenalty(row.errors));
  });
}

/** A row a best pick looks at: its ranking value (wscore or the primary metric), dollars and errors. */
export interface BestCandidate {
  rank: number | null;
  cost: number | null;
  errors: number;
}

/** The index of the best row: the highest ranking value among rows with no errors (a row with errors is never named best). */
export function bestIndex(rows: readonly BestCandidate[]): number | undefined {
  let best: number | undefined;
  rows.forEach((r, i) => {
    if (r.errors > 0 || r.rank === null) return;
    if (best === undefined || r.rank > rows[best]!.rank!) best = i;
  });
  return best;
}

/**
 * Orders two costs, cheaper first, unknown last; costs equal to a billionth of the larger are equal. A contender's
 * cost is a sum over its results in the order they arrived, so two contenders that paid the same can differ in the
 * last bits of a float, and that must not rank them.
 */
export function byCost(a: number | null | undefined, b: number | null | undefined): number {
  const x = a ?? Infinity;
  const y = b ?? Infinity;
  if (x === y) return 0;
  if (
    Number.isFinite(x) &&
    Number.isFinite(y) &&
    Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y))
  )
    return 0;
  return x < y ? -1 : 1;
}

/** The index of the best value: the cheapest row with no errors within `points` (0.02 = 2 points) of the best's rank. */
export function bestValueIndex(rows: readonly BestCandidate[], points = 0.02): number | undefined {
  const top = bestIndex(rows);
  if (top === undefined) return undefined;
  const bar = rows[top]!.rank! - points - 1e-9;
  let pick = top;
  rows.forEach((r, i) => {
    if (r.errors > 0 || r.rank === null || r.rank < bar) return;
    const order = byCost(r.cost, rows[pick]!.cost);
    if (order < 0 || (order === 0 && r.rank > rows[pick]!.rank!)) pick = i;
  });
  return pick;
}

/** The values a weight may name, read from a row's figures; a scorer metric wins over a built-in of the same name. */
export function weightValues(s: Summary): Record<string, number | null> {
  return {
    score: s.score,
    time: s.time,
    cost: s.usage.costUsd,
    latency: s.latency,
    p95: s.p95,
    ...s.metrics,
  };
}
