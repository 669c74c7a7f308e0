import type { CaseResult } from './results.ts';
import type { RunState } from './run-state.ts';

/** One line of `runs`: where a run stands, what it cost so far, and how long it has taken. */
export interface RunSummary {
  runId: string;
  suite: string;
  state: RunState;
  done: number;
  total: number;
  errors: number;
  /** Dollars spent so far; `null` when no finished case reported a cost. */
  costUsd: number | null;
  /** Seconds from start to close, or to now while it runs. */
  duration: number;
  startedAt: string;
  closedAt?: string;
  /** The codec key id the run's payloads are encrypted with, when this process lacks that key: nothing else is known. */
  encrypted?: string;
}

/** Counts a run's finished cases, errors and dollars from the results Temporal holds so far. */
export function tallyResults(
  results: readonly CaseResult[],
): Pick<RunSummary, 'done' | 'errors' | 'costUsd'> {
  const costs = results.map((r) => r.usage.costUsd).filter((c): c is number => c !== null);
  return {
    done: results.length,
    errors: results.filter((r) => r.status !== 'scored').length,
    costUsd: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
  };
}
