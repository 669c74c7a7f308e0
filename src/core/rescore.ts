import type { Json, Metric } from '../api/types.ts';
import { summarizeFailures } from './failures.ts';
import type { CaseResult } from './results.ts';
import type { Snapshot } from './snapshot.ts';
import type { RescoreOf, SnapshotCase } from './snapshot-core.ts';

export { RescoreOfSchema, type RescoreOf } from './snapshot-core.ts';

/** What the scorer is given again for one saved reply: the parsed output and the reply text as the run kept them. */
export interface SavedReply {
  output?: Json;
  raw?: string;
  /** Set on a reply the adapter marked failed: the scorer's `failed` grades it. */
  error?: string;
}

/** A fresh verdict on a saved reply: the score, or the scorer's failure. */
export type Verdict =
  | {
      value: number;
      metrics: Record<string, number | null>;
      outcomes?: Record<string, number>;
      diagnostics?: Record<string, Json>;
    }
  | { failed: string };

/** The prefix the case runner gives a scorer's failure, so a rescore retries exactly those. */
export const SCORER_FAILED = 'the scorer failed: ';

/**
 * Whether a saved result has a reply the scorer can grade again: a scored case, a reply the adapter marked failed
 * (graded by the scorer's `failed`, still 0), or one the scorer failed on. A transport error stays without a score.
 */
export function canRescore(r: CaseResult): boolean {
  if (r.status === 'scored' || r.status === 'reply_error') return true;
  return r.status === 'error' && (r.error?.startsWith(SCORER_FAILED) ?? false);
}

/** What a rescore changes in a snapshot: its new run id, the scorer's metrics and weights now, the cases, the verdicts. */
export interface RescoreParts {
  runId: string;
  rescoreOf: RescoreOf;
  metrics: Metric[];
  weights?: Record<string, number>;
  cases: SnapshotCase[];
  /** Grades one saved reply of a case with the suite's current scorer. */
  grade(kase: SnapshotCase, reply: SavedReply): Verdict;
}

/**
 * A new snapshot of the same replies graded again (no model call): usage, latency and time are the original's, only
 * scores, metrics, outcomes and diagnostics change; the snapshot names the run it re-scored.
 */
export function rescoreSnapshot(original: Snapshot, parts: RescoreParts): Snapshot {
  const byKey = new Map(parts.cases.map((c) => [c.key, c]));
  const results = original.results.map((r): CaseResult => {
    const kase = byKey.get(r.caseKey);
    if (!kase || !canRescore(r)) return r;
    const failedReply = r.status === 'reply_error';
    const verdict = parts.grade(kase, {
      ...(r.output !== undefined ? { output: r.output } : {}),
      ...(r.reply !== undefined ? { raw: r.reply } : {}),
      ...(failedReply ? { error: r.error ?? 'failed' } : {}),
    });
    const { error: _, ...rest } = r;
    if (failedReply && !('failed' in verdict)) {
      // A failed reply stays a failure worth 0; the scorer only says what it is worth on each metric.
      const { metrics, outcomes = {}, diagnostics = {} } = verdict;
      return { ...r, score: 0, metrics, outcomes, diagnostics };
    }
    if ('failed' in verdict) {
      return {
        ...rest,
        status: 'error',
        score: null,
        metrics: {},
        outcomes: {},
        diagnostics: {},
        error: `${SCORER_FAILED}${verdict.failed}`,
      };
    }
    return {
      ...rest,
      status: 'scored',
      score: verdict.value,
      metrics: verdict.metrics,
      outcomes: verdict.outcomes ?? {},
      diagnostics: verdict.diagnostics ?? {},
    };
  });
  const { weights: _, ...kept } = original;
  return {
    ...kept,
    runId: parts.runId,
    rescoreOf: parts.rescoreOf,
    metrics: parts.metrics,
    ...(parts.weights ? { weights: parts.weights } : {}),
    cases: original.cases.map((c) => byKey.get(c.key) ?? c),
    results,
    // Why cases failed is the new verdicts', not the original's: a scorer that now throws is an error to name.
    failures: summarizeFailures(original.contenders, original.experiments, results),
  };
}
