import { ApplicationFailure, Context } from '@temporalio/activity';
import { outcomeOf } from '../src/core/outcomes.ts';
import type { CaseResult } from '../src/core/results.ts';
import { createCaseRunner, outOfTries, type CaseDeps, type CaseTask } from './case-runner.ts';

/** A retried case: a result, or handed back unrun because the gate paused or stopped the run. */
export type RetryOutcome = { result: CaseResult } | { deferred: 'paused' | 'stopped' };

/**
 * A case to retry: the task, the dataset the gate's pause message names, and the tries made before (1, the pool's,
 * when absent; more when its command retried a call it started before the run was made).
 */
export type RetryTask = CaseTask & { dataset: string; tried?: number };

/**
 * Builds the runCase activity: one case after its first try (in a pool) failed in a way worth retrying. Temporal's
 * retry policy does the retrying, with the provider's Retry-After as the next delay; the last try records the error.
 */
export function createRunCase(deps: CaseDeps) {
  const runOne = createCaseRunner(deps);
  return async function runCase(task: RetryTask): Promise<RetryOutcome> {
    const context = Context.current();
    // The tries before this activity came first; its attempts are the ones after them.
    const attempt = context.info.attempt + (task.tried ?? 1);
    // The gate counts a retried case's outcome too; the pools act on what it answers.
    const told = async (result: CaseResult): Promise<RetryOutcome> => {
      await deps.gate.report(task.runId, [outcomeOf(result, task.contender.key, task.dataset)]);
      return { result };
    };
    const outcome = outOfTries(task, await runOne(task, attempt));
    if ('deferred' in outcome) return outcome;
    if ('result' in outcome) return await told(outcome.result);
    const { error, delay } = outcome.retry;
    throw ApplicationFailure.create({
      type: 'ProviderRetryable',
      message: error,
      ...(delay !== undefined ? { nextRetryDelay: delay * 1000 } : {}),
    });
  };
}
