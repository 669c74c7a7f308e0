import { ApplicationFailure, Context } from '@temporalio/activity';
import { outcomeOf } from '../src/core/outcomes.ts';
import type { CaseResult } from '../src/core/results.ts';
import { createCaseRunner, outOfTries, type CaseTask } from './case-runner.ts';
import type { PoolDeps } from './run-cases.ts';
import { createPlanCases } from './plan-cases.ts';
import type { ExperimentCases } from '../src/core/run-input.ts';

/** A case's key and hash as a task names them. */
const caseOf = ([caseKey, caseHash]: [string, string]) => ({ caseKey, caseHash });

/**
 * A retried case: reported to its experiment by update (`reported`), handed back unrun because the gate paused or
 * stopped the run or its worker is stopping, or (from an activity of an earlier version) its result.
 */
export type RetryOutcome = { reported: true } | { deferred: 'paused' | 'stopped' } | { result: CaseResult };

/**
 * A case to retry: the task, its index in the experiment (absent from a workflow of an earlier version), the dataset
 * the gate's pause message names, and the tries made before (1, the pool's, when absent; more when its command retried
 * a call it started before the run was made).
 */
export type RetryTask = (CaseTask | (Omit<CaseTask, 'caseKey' | 'caseHash'> & { plan: ExperimentCases })) & {
  index?: number;
  dataset: string;
  tried?: number;
};

/**
 * Builds the runCase activity: one case after its first try (in a pool) failed in a way worth retrying. Temporal's
 * retry policy does the retrying, with the provider's Retry-After as the next delay; the last try records the error.
 *
 * Like a pool, it makes its result durable by update before it ends, never only in its activity result: Temporal
 * refuses the result of an attempt it gave up on while the server was away, though its worker went on and paid for
 * the call. The next attempt first waits for any earlier one still running in this process, then asks the experiment
 * whether the case still waits, and makes the call only if it does.
 */
export function createRunCase(deps: PoolDeps) {
  const runOne = createCaseRunner(deps);
  const plans = deps.plans ?? createPlanCases(deps);
  return async function runCase(retried: RetryTask): Promise<RetryOutcome> {
    // A case of a run with a plan is named by its index there.
    const task: CaseTask & RetryTask =
      'plan' in retried ? { ...retried, ...caseOf(plans.caseAt(retried.plan, retried.index!)) } : retried;
    const { info } = Context.current();
    const workflowId = info.workflowExecution?.workflowId ?? '';
    // Where to report: the experiment and the case's index there (none from a workflow of an earlier version).
    const index = workflowId ? task.index : undefined;
    const { before, quieted } = deps.pools.enter(`${workflowId}/${info.activityId}`, info.attempt);
    try {
      await before;
      if (index !== undefined && info.attempt > 1 && !(await deps.experiments.retry(workflowId, { index })))
        return { reported: true };
      // A worker that is stopping starts no call: the case goes back to the pools, for the next worker.
      if (deps.pools.draining.aborted) return { deferred: 'stopped' };
      // The tries before this activity came first; its attempts are the ones after them.
      const outcome = outOfTries(task, await runOne(task, info.attempt + (task.tried ?? 1)));
      if ('deferred' in outcome) return outcome;
      // Back to the pools, whose next one may run on a worker that can call it.
      if ('declined' in outcome) return { deferred: 'paused' };
      if ('result' in outcome) {
        const { result } = outcome;
        if (index !== undefined) await deps.experiments.retry(workflowId, { index, result });
        // The gate counts a retried case's outcome too; the pools act on what it answers.
        await deps.gate.report(task.runId, [outcomeOf(result, task.contender.key, task.dataset)]);
        return index !== undefined ? { reported: true } : { result };
      }
      const { error, delay } = outcome.retry;
      throw ApplicationFailure.create({
        type: 'ProviderRetryable',
        message: error,
        ...(delay !== undefined ? { nextRetryDelay: delay * 1000 } : {}),
      });
    } finally {
      quieted();
    }
  };
}
