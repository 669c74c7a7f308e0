import type { Usage } from '../api/types.ts';
import { addUsage, UNKNOWN_USAGE, type CaseResult } from './results.ts';

/** The mean of the numbers given, skipping `null`; `null` when there are none. */
export function meanSkippingNull(values: readonly (number | null | undefined)[]): number | null {
  const present = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return present.length ? present.reduce((a, b) => a + b, 0) / present.length : null;
}

/** The 95th percentile by nearest rank; `null` for no values. */
export function p95(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(0.95 * sorted.length) - 1)]!;
}

/**
 * Seconds covered by at least one of the intervals (epoch ms): the union of a group's cases' spans, so the time a run
 * stood still between them (stopped, then resumed) is not counted, and cases in flight together count once.
 */
export function busySeconds(spans: readonly (readonly [start: number, end: number])[]): number {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let from = -Infinity;
  let to = -Infinity;
  for (const [start, end] of sorted) {
    if (start > to) {
      if (to > from) total += to - from;
      [from, to] = [start, end];
    } else to = Math.max(to, end);
  }
  if (to > from) total += to - from;
  return total / 1000;
}

/** One experiment's (or any group's) figures: means per metric, errors, time, latency, tokens and dollars. */
export interface Summary {
  cases: number;
  score: number | null;
  metrics: Record<string, number | null>;
  errors: number;
  /** Replies the provider stopped at their token limit. */
  truncated: number;
  /** Seconds during which some case was running (a resumed run's interruption is not counted), less waits on limits. */
  time: number | null;
  latency: number | null;
  p95: number | null;
  usage: Usage;
}

/**
 * Summarises results: metric means skip null, transport errors add to errors but never to a mean; latency and p95
 * count only the replies that were scored (a failed reply leaves them as an error does); `time` leaves out
 * the waits on limits, averaged over the experiment's `slots` (its cases in flight).
 */
export function summarize(
  results: readonly CaseResult[],
  metricNames: readonly string[],
  slots = 1,
): Summary {
  const waited = results.reduce((sum, r) => sum + (r.waited ?? 0), 0);
  // A failed reply's seconds say nothing of how fast the model answers: a model whose every reply failed fast would
  // look faster than one that works.
  const latencies = results
    .filter((r) => r.status === 'scored')
    .map((r) => r.latency)
    .filter((l): l is number => l !== null);
  const spans = results.map((r) => [Date.parse(r.startedAt), Date.parse(r.finishedAt)] as const);
  return {
    cases: results.length,
    score: meanSkippingNull(results.map((r) => r.score)),
    metrics: Object.fromEntries(
      metricNames.map((m) => [m, meanSkippingNull(results.map((r) => r.metrics[m]))]),
    ),
    errors: results.filter((r) => r.status !== 'scored').length,
    truncated: results.filter((r) => r.truncated).length,
    time: results.length ? Math.max(0, busySeconds(spans) - waited / Math.max(1, slots)) : null,
    latency: meanSkippingNull(latencies),
    p95: p95(latencies),
    usage: results.reduce((u, r) => addUsage(u, r.usage), UNKNOWN_USAGE),
  };
}
