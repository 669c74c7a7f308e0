import { UNKNOWN_USAGE, type CaseResult } from './results.ts';

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
