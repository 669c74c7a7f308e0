import { ActivityFailure, ApplicationFailure, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import type { Contender } from '../src/core/matrix.ts';
import type { CaseResult } from '../src/core/results.ts';
import { transportErrorResult } from '../src/core/outcomes.ts';
import { sliceProgressQuery } from './messages.ts';

/** One slice of one experiment: a contender over up to a slice's worth of one dataset's cases. */
export interface SliceInput {
  runId: string;
  experimentId: string;
  contender: Contender;
  cases: [key: string, hash: string][];
  parallelism: number;
}

/** Every case result of the slice, in case order. */
export interface SliceResult {
  experimentId: string;
  results: CaseResult[];
}

const { runCase } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
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
  let next = 0;
  let done = 0;
  let errors = 0;
  setHandler(sliceProgressQuery, () => ({ done, errors, total: input.cases.length }));
  const lane = async () => {
    while (next < input.cases.length) {
      const index = next++;
      const [caseKey, caseHash] = input.cases[index]!;
      const startedAt = new Date().toISOString();
      let result: CaseResult;
      try {
        result = await runCase({
          experimentId: input.experimentId,
          caseKey,
          caseHash,
          contender: input.contender,
        });
      } catch (error) {
        result = transportErrorResult(
          input.experimentId,
          caseKey,
          failureMessage(error),
          startedAt,
          new Date().toISOString(),
        );
      }
      results[index] = result;
      done++;
      if (result.status !== 'scored') errors++;
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(input.parallelism, input.cases.length)) }, lane),
  );
  return { experimentId: input.experimentId, results: results as CaseResult[] };
}
