import type { Failure } from './coordinator.ts';
import { UNKNOWN_USAGE, type CaseResult } from './results.ts';
import { SCORER_FAILED } from './rescore.ts';

/** The result of a case whose call failed after its retries: an error with no score, so it never drags a mean. */
export function transportErrorResult(
  experimentId: string,
  caseKey: string,
  error: string,
  startedAt: string,
  finishedAt: string,
): CaseResult {
  return {
    experimentId,
    caseKey,
    status: 'error',
    score: null,
    metrics: {},
    outcomes: {},
    diagnostics: {},
    error,
    usage: UNKNOWN_USAGE,
    latency: null,
    duration: (Date.parse(finishedAt) - Date.parse(startedAt)) / 1000,
    startedAt,
    finishedAt,
    attempts: 0,
  };
}

/** How the gate hears of a finished case: `null` for a success, else the failure with what the pause message shows. */
export function outcomeOf(result: CaseResult, contender: string, dataset: string): Failure | null {
  // A case `--cache-only` skipped was never called: nothing failed.
  if (result.status === 'scored' || result.skipped) return null;
  const error = result.error ?? 'failed';
  return {
    contender,
    dataset,
    caseKey: result.caseKey,
    error,
    ...(error.startsWith(SCORER_FAILED) ? { scorer: true } : {}),
  };
}
