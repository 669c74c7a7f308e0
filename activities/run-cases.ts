import { CancelledFailure, Context } from '@temporalio/activity';
import type {
  ExchangeAnswer,
  ExchangeRequest,
  PoolEnd,
  RetryReport,
  Settled,
} from '../src/core/experiment-state.ts';
import { holderOf } from '../src/core/experiment-state.ts';
import type { Contender } from '../src/core/matrix.ts';
import type { Failure } from '../src/core/coordinator.ts';
import { outcomeOf } from '../src/core/outcomes.ts';
import { deliveryStalled, gateReportDue, nextMove } from '../src/core/pool-pacing.ts';
import { createCaseRunner, delayLeft, type CaseDeps } from './case-runner.ts';
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
  ended: 'drained' | 'paused' | PoolEnd;
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
 * batches and a crash repeats only the calls in flight and those finished in the last quarter second.
 */
export function createRunCases(deps: PoolDeps) {
  const runOne = createCaseRunner(deps);
  const plans = deps.plans ?? createPlanCases(deps);
  return async function runCases(input: PoolInput): Promise<PoolResult> {
    const context = Context.current();
    const { cancellationSignal: cancelled } = context;
    const { draining } = deps.pools;
    const holder = holderOf(context.info.activityId, context.info.attempt);
    // A retried pool does not trust the first lease: its experiment may have settled those cases since.
    const retried = context.info.attempt > 1;
    const buffer: ExchangeAnswer['cases'] = retried ? [] : [...input.first];
    const outbox: Settled[] = [];
    const finished: number[] = [];
    let running = 0;
    let oldest: number | null = null;
    let bytes = 0;
    let urgent = false;
    let exhausted = !retried && !input.more;
    let exchanging = false;
    let exchangingSince: number | null = null;
    let ended = 'drained' as PoolResult['ended'];
    let failure: Error | undefined;
    let wake = () => {};
    const kick = () => wake();
    const { handedOver, before, quieted } = deps.pools.enter(
      `${input.workflowId}/${context.info.activityId}`,
      context.info.attempt,
    );
    // Outcomes for the run's gate (abort_after, the pause): a failure holds new calls until the gate has answered.
    const toGate = { outcomes: [] as (Failure | null)[], failures: 0, since: null as number | null };
    let reporting = false;
    let holding = false;

    const report = (item: Settled) => {
      outbox.push(item);
      oldest ??= Date.now();
      if ('result' in item) {
        bytes += (item.result.reply?.length ?? 0) + 512;
        const outcome = outcomeOf(item.result, input.contender.key, input.dataset);
        toGate.outcomes.push(outcome);
        toGate.since ??= Date.now();
        if (outcome) toGate.failures++;
        if (outcome) urgent = true;
      } else urgent = true;
      finished.push(Date.now());
    };
    // A call in flight: reported when it ends.
    const follow = (index: number, call: ReturnType<typeof runOne>) => {
      running++;
      void call
        .then((outcome) => settle(index, outcome))
        .catch((error: unknown) => (failure ??= asError(error)))
        .finally(() => {
          running--;
          kick();
        });
    };
    // The leased cases it will not call go back.
    const handBack = (reason: 'paused' | 'stopped') => {
      for (const [index] of buffer.splice(0)) report({ index, deferred: reason });
      exhausted = true;
    };
    const settle = (index: number, outcome: Awaited<ReturnType<typeof runOne>>) => {
      if ('result' in outcome) return report({ index, result: outcome.result });
      if ('retry' in outcome)
        return report({
          index,
          retry: {
            delay: delayLeft(outcome.retry, Date.now()),
            error: outcome.retry.error,
            tried: outcome.retry.attempts,
          },
        });
      report({ index, deferred: outcome.deferred });
      if (ended === 'drained') ended = outcome.deferred;
      handBack(outcome.deferred);
    };
    const tellGate = () => {
      reporting = true;
      holding = toGate.failures > 0;
      const outcomes = toGate.outcomes.splice(0);
      [toGate.failures, toGate.since] = [0, null];
      deps.gate
        .report(input.runId, outcomes)
        .then((state) => {
          if (state === 'running') return;
          const reason = state === 'paused' ? 'paused' : 'stopped';
          if (ended === 'drained') ended = reason;
          handBack(reason);
        })
        .catch((error: unknown) => (failure ??= asError(error)))
        .finally(() => {
          reporting = holding = false;
          kick();
        });
    };
    const startCalls = () => {
      const held = () => holding || toGate.failures > 0 || deliveryStalled(exchangingSince, Date.now());
      const stopping = () => cancelled.aborted || draining.aborted || held();
      while (running < input.parallelism && buffer.length > 0 && !handedOver.aborted && !stopping()) {
        const [index, ...known] = buffer.shift()!;
        const [caseKey, caseHash] = known.length ? known : plans.caseAt(input.plan!, index);
        const { runId, experimentId, contender } = input;
        follow(index, runOne({ runId, experimentId, caseKey, caseHash, contender }, 1));
      }
    };
    const exchange = (want: number) => {
      exchanging = true;
      exchangingSince = Date.now();
      const settled = outbox.splice(0);
      [oldest, bytes, urgent] = [null, 0, false];
      deps.experiments
        .exchange(input.workflowId, { holder, settled, want })
        .then((answer) => {
          buffer.push(...answer.cases);
          if (answer.end) {
            ended = answer.end;
            handBack('stopped');
          } else if (answer.cases.length < want) exhausted = true;
        })
        .catch((error: unknown) => {
          // Keep what was not delivered: it goes with the next exchange.
          outbox.unshift(...settled);
          failure ??= asError(error);
        })
        .finally(() => {
          exchanging = false;
          exchangingSince = null;
          kick();
        });
    };

    const beat = setInterval(() => context.heartbeat(), HEARTBEAT_SECONDS * 500);
    cancelled.addEventListener('abort', kick);
    draining.addEventListener('abort', kick);
    handedOver.addEventListener('abort', kick);
    try {
      // The attempt before this one still runs here: it reports what it finished first, while the experiment still
      // takes its reports (this attempt's first exchange makes it refuse them).
      await Promise.race([before, new Promise((resolve) => cancelled.addEventListener('abort', resolve))]);
      for (;;) {
        if (failure) throw failure;
        // A worker shut down without draining first cannot deliver results: no worker would process the exchange.
        const shutDown =
          cancelled.aborted && (cancelled.reason as Error | undefined)?.message === 'WORKER_SHUTDOWN';
        const quiet = running === 0 && (shutDown || (outbox.length === 0 && !exchanging));
        // Stopping its worker: the calls in flight are reported, then the pool waits to be cancelled, to run again
        // elsewhere — it must not end, or the experiment would start another pool on this very worker.
        if ((draining.aborted || cancelled.aborted) && quiet) {
          quieted();
          if (!cancelled.aborted)
            await new Promise((resolve) => cancelled.addEventListener('abort', resolve));
          throw new CancelledFailure('the worker is stopping');
        }
        // A later attempt of this pool took over here: Temporal has already given this one up, whatever it returns.
        if (handedOver.aborted && quiet) throw new CancelledFailure('handed over to its next attempt');
        const now = Date.now();
        if (gateReportDue({ ...toGate, count: toGate.outcomes.length }, reporting, now)) tellGate();
        startCalls();
        while (finished.length > 0 && finished[0]! < now - 1000) finished.shift();
        const move = nextMove({
          parallelism: input.parallelism,
          running,
          buffered: buffer.length,
          unsent: outbox.length,
          oldestUnsentAt: oldest,
          unsentBytes: bytes,
          urgent,
          exhausted: exhausted || cancelled.aborted || draining.aborted || handedOver.aborted,
          exchanging,
          rate: finished.length,
          now,
        });
        // Everything finished has been reported by exchange (nextMove ends a pool only then): Temporal may have given
        // this attempt up without its worker knowing, and would refuse what its result carried.
        if ('end' in move && toGate.outcomes.length === 0 && !reporting) return { ended, settled: [] };
        if ('end' in move && !reporting) tellGate();
        if ('exchange' in move) exchange(move.want);
        await new Promise<void>((resolve) => {
          wake = resolve;
          if ('at' in move) setTimeout(resolve, Math.max(0, move.at - Date.now()));
          // Successes wait for the gate at most a second.
          if (toGate.since !== null) setTimeout(resolve, Math.max(0, toGate.since + 1000 - Date.now()));
        });
      }
    } finally {
      clearInterval(beat);
      // The worker's drain signal outlives this pool: a listener left on it would pile up, one per pool.
      cancelled.removeEventListener('abort', kick);
      draining.removeEventListener('abort', kick);
      handedOver.removeEventListener('abort', kick);
      quieted();
    }
  };
}
