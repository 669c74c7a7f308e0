import {
  ActivityFailure,
  ApplicationFailure,
  getExternalWorkflowHandle,
  proxyActivities,
  setHandler,
  sleep,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { Contender } from '../src/core/matrix.ts';
import type { CaseResult } from '../src/core/results.ts';
import { transportErrorResult } from '../src/core/outcomes.ts';
import { gateWorkflowId } from '../src/core/run-input.ts';
import { sliceProgressQuery } from './messages.ts';
import { outcomeSignal } from './run-gate.ts';

/** One slice of one experiment: a contender over up to a slice's worth of one dataset's cases. */
export interface SliceInput {
  runId: string;
  experimentId: string;
  dataset: string;
  contender: Contender;
  cases: [key: string, hash: string][];
  parallelism: number;
}

/** Every finished case result of the slice, in case order; `stopped` when the run was stopped before all were done. */
export interface SliceResult {
  experimentId: string;
  results: CaseResult[];
  stopped?: boolean;
}

const { runCase } = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '10 seconds',
  // Retry-After and the 1-2-4-8 s back-off arrive as each failure's nextRetryDelay (S8).
  retry: {
    maximumAttempts: 5,
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '8 seconds',
  },
});

function failureMessage(error: unknown): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof ApplicationFailure || cause instanceof Error) return cause.message;
  return String(cause);
}

/** Runs a slice's cases through a window of `parallelism` activities; a failed call becomes an error result. */
export async function experimentSlice(input: SliceInput): Promise<SliceResult> {
  const results: (CaseResult | undefined)[] = new Array<CaseResult | undefined>(input.cases.length);
  const gate = getExternalWorkflowHandle(gateWorkflowId(input.runId));
  let next = 0;
  let done = 0;
  let errors = 0;
  let stopped = false;
  const signals: Promise<void>[] = [];
  setHandler(sliceProgressQuery, () => ({ done, errors, total: input.cases.length }));
  const runOne = async (caseKey: string, caseHash: string): Promise<CaseResult | undefined> => {
    for (let pause = 2; ; pause = Math.min(pause * 2, 30)) {
      const startedAt = new Date().toISOString();
      try {
        const outcome = await runCase({
          runId: input.runId,
          experimentId: input.experimentId,
          caseKey,
          caseHash,
          contender: input.contender,
        });
        if (!('deferred' in outcome)) return outcome;
        if (outcome.deferred === 'stopped') return undefined;
      } catch (error) {
        return transportErrorResult(
          input.experimentId,
          caseKey,
          failureMessage(error),
          startedAt,
          new Date().toISOString(),
        );
      }
      // Paused: nothing new starts until the pause is answered; look again later.
      await sleep(`${pause} seconds`);
    }
  };
  const lane = async () => {
    while (!stopped && next < input.cases.length) {
      const index = next++;
      const [caseKey, caseHash] = input.cases[index]!;
      const result = await runOne(caseKey, caseHash);
      if (!result) {
        stopped = true;
        return;
      }
      results[index] = result;
      done++;
      const failed = result.status !== 'scored';
      if (failed) errors++;
      const failure = {
        contender: input.contender.key,
        dataset: input.dataset,
        caseKey,
        error: result.error ?? 'failed',
      };
      // Not awaited: the lane goes on to its next case while the gate hears of this one.
      // A gate already closed (the run was cancelled) must not fail the slice.
      signals.push(gate.signal(outcomeSignal, failed ? failure : null).catch(() => undefined));
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(input.parallelism, input.cases.length)) }, lane),
  );
  await Promise.all(signals);
  const finished = results.filter((r): r is CaseResult => r !== undefined);
  return { experimentId: input.experimentId, results: finished, ...(stopped ? { stopped } : {}) };
}
