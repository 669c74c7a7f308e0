import type { Usage } from '../api/types.ts';
import { addKnown, type CaseResult } from './results.ts';

/** The mean of the numbers given, skipping `null`; `null` when there are none. */
export function meanSkippingNull(values: readonly (number | null | undefined)[]): number | null {
  const mean = new RunningMean();
  for (const value of values) mean.add(value);
  return mean.mean();
}

/** The 95th percentile by nearest rank; `null` for no values. */
export function p95(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  return nearestRank95([...values].sort((a, b) => a - b));
}

/** The 95th percentile by nearest rank of values already sorted, at least one. */
function nearestRank95(sorted: ArrayLike<number>): number {
  return sorted[Math.max(0, Math.ceil(0.95 * sorted.length) - 1)]!;
}

/**
 * Seconds covered by at least one of the intervals (epoch ms): the union of a group's cases' spans, so the time a run
 * stood still between them (stopped, then resumed) is not counted, and cases in flight together count once.
 */
export function busySeconds(spans: readonly (readonly [start: number, end: number])[]): number {
  return busyOf(
    Float64Array.from(spans, (s) => s[0]),
    Float64Array.from(spans, (s) => s[1]),
  );
}

/** {@link busySeconds} of spans held as two columns: no pair per case to make, hold and sort. */
function busyOf(starts: Float64Array, ends: Float64Array): number {
  const order = new Uint32Array(starts.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  // Stable, as the sort of the pairs was: spans that start together keep their order.
  order.sort((a, b) => starts[a]! - starts[b]! || a - b);
  let total = 0;
  let from = -Infinity;
  let to = -Infinity;
  for (const i of order) {
    const start = starts[i]!;
    if (start > to) {
      if (to > from) total += to - from;
      from = start;
      to = ends[i]!;
    } else to = Math.max(to, ends[i]!);
  }
  if (to > from) total += to - from;
  return total / 1000;
}

/**
 * A case's value of `score` or of the compared (primary) metric, `value` being what it recorded: a call that failed
 * after its retries counts as wrong (0), as does a failed reply without the value; a scored case without it has none
 * (`null`). The means, the ranking and the paired tests all count a case so. The other metrics may be better low
 * (`invalid_rate`): a failed case keeps what the scorer's `failed` gave it, and a failed call has none.
 */
export function countedValue(status: CaseResult['status'], value: number | null | undefined): number | null {
  if (status === 'error') return 0;
  return value ?? (status === 'reply_error' ? 0 : null);
}

/** One experiment's (or any group's) figures: means per metric, errors, time, latency, tokens and dollars. */
export interface Summary {
  cases: number;
  /** The mean score, a failed case counted 0 ({@link countedValue}). */
  score: number | null;
  /** Each metric's mean: the compared one counted as `score` is, the others over the cases that have a value. */
  metrics: Record<string, number | null>;
  /** Cases with a value, per metric and `score`: below `cases` where the scorer gave a case none. */
  valued: Record<string, number>;
  errors: number;
  /** Replies the provider stopped at their token limit. */
  truncated: number;
  /** Seconds during which some case was running (a resumed run's interruption is not counted), less waits on limits. */
  time: number | null;
  latency: number | null;
  p95: number | null;
  usage: Usage;
  /** Dollars the judge's calls cost, apart from `usage` (the contender's); absent when no reply was judged. */
  judgeUsd?: number;
}

/**
 * Summarises results: `score` and the `compared` metric count a failed case as 0 ({@link countedValue}), the other
 * metrics skip a case without a value, a failed call's included (each mean's count in `valued`); latency and p95
 * count only the replies that were scored (a failed reply leaves them as an error does); `time` leaves out
 * the waits on limits, averaged over the experiment's `slots` (its cases in flight).
 */
export function summarize(
  results: readonly CaseResult[],
  metricNames: readonly string[],
  slots = 1,
  compared?: string,
): Summary {
  // One pass, into columns and running sums: a report of 100,000 cases summarises each contender per dataset and
  // overall, and an array (or a usage record) per case per figure was most of what it allocated.
  const n = results.length;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  const latencies = new Float64Array(n);
  let latencyCount = 0;
  const latencyMean = new RunningMean();
  const score = new RunningMean();
  const metrics = metricNames.map(() => new RunningMean());
  let waited = 0;
  let errors = 0;
  let truncated = 0;
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let costUsd: number | null = null;
  let judgeUsd: number | null = null;
  const comparedAt = compared === undefined ? -1 : metricNames.indexOf(compared);
  for (let i = 0; i < n; i++) {
    const r = results[i]!;
    waited += r.waited ?? 0;
    starts[i] = Date.parse(r.startedAt);
    ends[i] = Date.parse(r.finishedAt);
    score.add(countedValue(r.status, r.score));
    for (let m = 0; m < metrics.length; m++) {
      const value = r.metrics[metricNames[m]!];
      metrics[m]!.add(m === comparedAt ? countedValue(r.status, value) : value);
    }
    if (r.status !== 'scored') errors++;
    // A failed reply's seconds say nothing of how fast the model answers: a model whose every reply failed fast
    // would look faster than one that works.
    else if (r.latency !== null) {
      latencies[latencyCount++] = r.latency;
      latencyMean.add(r.latency);
    }
    if (r.truncated) truncated++;
    inputTokens = addKnown(inputTokens, r.usage.inputTokens);
    outputTokens = addKnown(outputTokens, r.usage.outputTokens);
    costUsd = addKnown(costUsd, r.usage.costUsd);
    const judged = r.diagnostics.judge_usd;
    if (typeof judged === 'number') judgeUsd = (judgeUsd ?? 0) + judged;
  }
  return {
    cases: n,
    score: score.mean(),
    metrics: Object.fromEntries(metricNames.map((m, i) => [m, metrics[i]!.mean()])),
    valued: { score: score.count, ...Object.fromEntries(metricNames.map((m, i) => [m, metrics[i]!.count])) },
    errors,
    truncated,
    time: n ? Math.max(0, busyOf(starts, ends) - waited / Math.max(1, slots)) : null,
    latency: latencyMean.mean(),
    p95: latencyCount ? nearestRank95(latencies.subarray(0, latencyCount).sort()) : null,
    usage: { inputTokens, outputTokens, costUsd },
    ...(judgeUsd !== null ? { judgeUsd } : {}),
  };
}

/** A mean that skips what is not a finite number, kept as it goes. */
class RunningMean {
  private sum = 0;
  /** How many values were added. */
  count = 0;

  add(value: number | null | undefined): void {
    if (typeof value !== 'number' || !Number.isFinite(value)) return;
    this.sum += value;
    this.count++;
  }

  mean(): number | null {
    return this.count ? this.sum / this.count : null;
  }
}
