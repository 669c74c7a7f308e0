import { ApplicationFailure, CancelledFailure, Context } from '@temporalio/activity';
import { ApplicationFailureCategory } from '@temporalio/common';
import type { ExchangeAnswer, ExchangeRequest, RetryReport, Settled } from '../src/core/experiment-state.ts';
import { holderOf } from '../src/core/experiment-state.ts';
import type { Contender } from '../src/core/matrix.ts';
import { newPool, poolStep, type PoolEffect, type PoolEnded, type PoolNews } from '../src/core/pool-step.ts';
import {
  cannotCall,
  cannotCallNote,
  createCaseRunner,
  delayLeft,
  missingTeller,
  type CaseDeps,
  type CaseOutcome,
} from './case-runner.ts';
import type { PoolRegistry } from './pool-registry.ts';
import { createPlanCases, type PlanCases } from './plan-cases.ts';
import type { ExperimentCases } from '../src/core/run-input.ts';
import { HEARTBEAT_SECONDS } from './heartbeat.ts';

/**
 * How a pool reaches its experiment's workflow: one exchange of finished cases for new ones; and how a retried case
 * asks whether it is still wanted, then reports its result (true: the case was still waiting for it).
 */
export interface ExperimentClient {
  exchange(workflowId: string, request: ExchangeRequest): Promise<ExchangeAnswer>;
  retry(workflowId: string, report: RetryReport): Promise<boolean>;
}

/** A pool of calls for one experiment: its workflow, contender and how many calls it keeps in flight. */
export interface PoolInput {
  runId: string;
  experimentId: string;
  workflowId: string;
  dataset: string;
  contender: Contender;
  parallelism: number;
  /** Where its cases are listed (absent: leased with their keys, in runs started before the plan store). */
  plan?: ExperimentCases;
  /** The cases leased to its first attempt when it was scheduled, and whether more remain to ask for. */
  first: ExchangeAnswer['cases'];
  more: boolean;
}

/**
 * Why a pool ended (nothing left to hand out, the gate paused the run, or the experiment told it to end). `settled` is
 * empty: a pool reports all it finished by exchange before it ends. The experiment still takes what a pool of an
 * earlier version returned there.
 */
export interface PoolResult {
  ended: PoolEnded;
  settled: Settled[];
}

/**
 * The activities' dependencies: the suite's code and cases, the gate, the experiments, this process's pools, and
 * where the runs' case lists are read (the plan store by default).
 */
export interface PoolDeps extends CaseDeps {
  experiments: ExperimentClient;
  pools: PoolRegistry;
  plans?: PlanCases;
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

/**
 * Builds the runCases activity: keeps `parallelism` of an experiment's cases in flight, leasing them from its
 * workflow and reporting each finished case within FLUSH_MS (a failure at once), so its `-p` calls never drain between
 * batches and a crash repeats only the calls in flight and those finished in the last quarter second. Every decision
 * is `poolStep`'s (src/core/pool-step.ts); this only turns news into its events and its effects into calls.
 */
export function createRunCases(deps: PoolDeps) {
  const runOne = createCaseRunner(deps);
  const tell = missingTeller(deps.gate);
  const plans = deps.plans ?? createPlanCases(deps);
  return async function runCases(input: PoolInput): Promise<PoolResult> {
    const context = Context.current();
    const { cancellationSignal: cancelled } = context;
    const { draining } = deps.pools;
    const { activityId, attempt } = context.info;
    // A worker that cannot call the contender at all declines before it leases anything: its attempt's leases pass to
    // the next attempt, on whichever worker takes it, and nothing goes into the experiment's history.
    const missing = cannotCall(deps, input.contender);
    if (missing) {
      await tell(input.runId, missing);
      throw declined(cannotCallNote(missing), attempt);
    }
    const holder = holderOf(activityId, attempt);
    const { handedOver, before, quieted } = deps.pools.enter(`${input.workflowId}/${activityId}`, attempt);
    const { runId, experimentId, contender } = input;
    const state = newPool({ ...input, contender: contender.key, retried: attempt > 1 });
    // Its calls in flight ride on the heartbeat: `cancel` says how many it waits for (src/core/cancel-wait.ts); when one
    // last ended and the slowest took tell `status` and the live view whether its provider still answers (silence.ts).
    const calls = { answeredAt: Date.now(), slowestMs: 0 };
    const beat = setInterval(
      () => context.heartbeat({ calls: state.running, ...calls }),
      HEARTBEAT_SECONDS * 500,
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const listeners: [AbortSignal, () => void][] = [];
    try {
      return await new Promise<PoolResult>((resolve, reject) => {
        const feed = (event: PoolNews) => {
          clearTimeout(timer);
          for (const effect of poolStep(state, { ...event, now: Date.now() })) perform(effect);
        };
        const perform = (effect: PoolEffect) => {
          if ('call' in effect) {
            // The one place a leased case becomes a call.
            const [index, ...known] = effect.call;
            // A case of a run with a plan is found by its index there; a plan this worker cannot read fails the pool.
            const found = () => (known.length ? known : plans.caseAt(input.plan!, index));
            const started = Date.now();
            const ended = () => {
              calls.answeredAt = Date.now();
              calls.slowestMs = Math.max(calls.slowestMs, calls.answeredAt - started);
            };
            Promise.resolve()
              .then(() => {
                const [caseKey, caseHash] = found();
                return runOne({ runId, experimentId, caseKey, caseHash, contender }, 1);
              })
              .then(
                (outcome) => {
                  ended();
                  feed({
                    called: settledOf(index, outcome),
                    ...('declined' in outcome ? { declined: outcome.declined } : {}),
                  });
                },
                (error: unknown) => feed({ callFailed: asError(error) }),
              );
          } else if ('exchange' in effect) {
            deps.experiments.exchange(input.workflowId, { holder, ...effect.exchange }).then(
              (answer) => feed({ leased: answer }),
              (error: unknown) => feed({ exchangeFailed: asError(error) }),
            );
          } else if ('tellGate' in effect) {
            deps.gate.report(runId, effect.tellGate).then(
              (gate) => feed({ gate }),
              (error: unknown) => feed({ gateFailed: asError(error) }),
            );
          } else if ('wakeAt' in effect) {
            timer = setTimeout(() => feed({ tick: true }), Math.max(0, effect.wakeAt - Date.now()));
          } else if ('quiet' in effect) quieted();
          else if ('end' in effect) resolve({ ended: effect.end, settled: [] });
          else if ('decline' in effect) reject(declined(effect.decline, attempt));
          else if ('cancel' in effect) reject(new CancelledFailure(effect.cancel));
          else reject(effect.fail);
        };
        const on = (signal: AbortSignal, event: () => PoolNews) => {
          const listener = () => feed(event());
          if (signal.aborted) return listener();
          signal.addEventListener('abort', listener, { once: true });
          listeners.push([signal, listener]);
        };
        // A worker shut down without draining first cannot deliver results: no worker would process the exchange.
        const shutDown = () => (cancelled.reason as Error | undefined)?.message === 'WORKER_SHUTDOWN';
        on(cancelled, () => ({ cancelled: { shutDown: shutDown() } }));
        on(draining, () => ({ draining: true }));
        on(handedOver, () => ({ handedOver: true }));
        void before.then(() => feed({ ready: true }));
      });
    } finally {
      clearInterval(beat);
      clearTimeout(timer);
      // The worker's drain signal outlives this pool: a listener left on it would pile up, one per pool.
      for (const [signal, listener] of listeners) signal.removeEventListener('abort', listener);
      quieted();
    }
  };
}

/**
 * How a pool that cannot run its cases here ends: a retryable failure, after it handed them back, so Temporal runs its
 * next attempt on whichever worker polls first, soon (1 s, then 2 s while no worker can: each try is a task,
 * not history). Ending as a pause instead waited up to 30 s between pools, and the same worker could take each again.
 */
export function declined(why: string, attempt: number): ApplicationFailure {
  return ApplicationFailure.create({
    type: 'Declined',
    // Benign: the SDK logs it at debug, not as a warning every other second while no worker can run the cases.
    category: ApplicationFailureCategory.BENIGN,
    message: `${why}; handed back for a worker that can run it`,
    nextRetryDelay: `${Math.min(2, attempt)} seconds`,
  });
}

/** How a call's outcome is reported: a retry with the delay still to wait, counted from when the call failed. */
function settledOf(index: number, outcome: CaseOutcome): Settled {
  if ('result' in outcome) return { index, result: outcome.result };
  if ('deferred' in outcome) return { index, deferred: outcome.deferred };
  // Handed back as a pause hands it back; the pool then declines, and its next attempt may go to another worker.
  if ('declined' in outcome) return { index, deferred: 'paused' };
  const { retry } = outcome;
  return { index, retry: { delay: delayLeft(retry, Date.now()), error: retry.error, tried: retry.attempts } };
}
