import {
  allHandlersFinished,
  CancellationScope,
  condition,
  continueAsNew,
  isCancellation,
  ActivityCancellationType,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.ts';
import { lease, releaseOthers, retryReturned, settle, waiting } from '../src/core/case-queue.ts';
import { firstLease } from '../src/core/pool-pacing.ts';
import {
  handleExchange,
  handleRetryReport,
  holderOf,
  isFailure,
  leased,
  newExperiment,
  nextStep,
  pauseDelay,
  type ExperimentState,
  type RetryJob,
} from '../src/core/experiment-state.ts';
import type { ExperimentInput } from '../src/core/run-input.ts';
import type { BatchWait } from '../src/core/progress.ts';
import { MAX_ATTEMPTS } from '../src/core/retry.ts';
import { batchRounds } from './batch-rounds.ts';
import { exchangeUpdate, experimentProgressQuery, retryUpdate } from './messages.ts';

/** How the experiment ended: its counts, and `stopped` when the gate stopped the run before every case was done. */
export interface ExperimentSummary {
  experimentId: string;
  total: number;
  done: number;
  errors: number;
  stopped?: boolean;
}

/** What an experiment carries across continue-as-new: its queue, and the pauses it has met in a row. */
export interface ExperimentCarry {
  state: ExperimentState;
  pauses: number;
}

/**
 * The patch under which a retry's call goes on when its experiment is cancelled, and the experiment closes only once it
 * has reported (before: the experiment closed at once, dropping the reply the call had paid for).
 */
const CANCEL_WAITS_FOR_RETRIES = 'cancel-waits-for-retries';

/** Exchanges one run of the workflow takes before it hands over to the next, below the 2,000 updates a run may take. */
const UPDATES_PER_RUN = 1000;

/** How long Temporal waits for an activity's heartbeat before it runs the activity again on another worker. */
const HEARTBEAT_TIMEOUT = '5 seconds';

/** A pool of calls, its activity id set so its holder id is known when its first cases are leased to it. */
const pool = (activityId: string) =>
  proxyActivities<Activities>({
    activityId,
    // A pool runs as long as its experiment; heartbeats, not this, tell Temporal that its worker died. A worker sends
    // them each second (src/client/worker.ts), so a dead worker is noticed within 5–6 s.
    startToCloseTimeout: '30 days',
    heartbeatTimeout: HEARTBEAT_TIMEOUT,
    // A pool fails when its worker dies, not because of the cases: the next worker takes over at once.
    retry: { initialInterval: '1 second', backoffCoefficient: 1, maximumInterval: '1 second' },
    // A cancelled experiment closes once its pool has stopped starting calls and reported those in flight, so a
    // `cancel` that waits for the run to close knows no call starts after it.
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  }).runCases;

const { runCase } = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  // Retry-After and the 1-2-4-8 s back-off arrive as each failure's nextRetryDelay; the pool's try was the first.
  retry: {
    maximumAttempts: MAX_ATTEMPTS - 1,
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '8 seconds',
  },
});

/**
 * An experiment: a pool activity keeps `parallelism` of its cases in flight, leasing them through exchanges that also
 * make each finished case durable; a case that fails in a way worth retrying runs again as an activity of its own,
 * which reports its result by update too.
 */
export async function experiment(
  input: ExperimentInput,
  carry?: ExperimentCarry,
): Promise<ExperimentSummary> {
  const calls = { retrying: 0 };
  try {
    return await runExperiment(input, carry, calls);
  } catch (error) {
    // Cancelled, its pool has reported the calls it had in flight; the retries' calls report too before it closes.
    if (isCancellation(error) && patched(CANCEL_WAITS_FOR_RETRIES))
      await CancellationScope.nonCancellable(() => condition(() => calls.retrying === 0));
    throw error;
  }
}

/** The experiment's work; `calls.retrying` counts the retried cases whose call is under way. */
async function runExperiment(
  input: ExperimentInput,
  carry: ExperimentCarry | undefined,
  calls: { retrying: number },
): Promise<ExperimentSummary> {
  const state = carry?.state ?? newExperiment(input.cases?.length ?? input.total ?? 0);
  let pauses = carry?.pauses ?? 0;
  let updates = 0;
  let pools = 0;
  const task = (index: number) => ({
    runId: input.runId,
    experimentId: input.experimentId,
    ...(input.cases
      ? { caseKey: input.cases[index]![0], caseHash: input.cases[index]![1] }
      : { plan: input.plan! }),
    dataset: input.dataset,
    contender: input.contender,
  });
  const retry = async ({ index, delay, tried }: RetryJob) => {
    await sleep(delay * 1000);
    // Once its call is under way, a cancel lets it finish and report: the reply is paid for.
    const call = () => runCase({ ...task(index), index, tried });
    const keep = patched(CANCEL_WAITS_FOR_RETRIES);
    calls.retrying++;
    try {
      const outcome = await (keep ? CancellationScope.nonCancellable(call) : call());
      // A retry reports its result by update before it ends (`reported`); one of an earlier version returns it.
      if ('result' in outcome) settle(state.queue, index, isFailure(outcome.result));
      else if ('deferred' in outcome) retryReturned(state.queue, index);
    } catch (error) {
      if (isCancellation(error)) return;
      // Its worker died on the last try: the case goes back to the pool rather than become an error it never was.
      retryReturned(state.queue, index);
    } finally {
      calls.retrying--;
    }
  };

  const batch: { wait?: BatchWait } = {};
  setHandler(experimentProgressQuery, () => ({
    done: state.queue.done,
    errors: state.queue.errors,
    total: state.queue.total,
    ...(batch.wait ? { batch: batch.wait } : {}),
  }));
  setHandler(retryUpdate, (report) => handleRetryReport(state, report));
  setHandler(exchangeUpdate, (request) => {
    updates++;
    if (!state.ending && (updates >= UPDATES_PER_RUN || workflowInfo().continueAsNewSuggested)) {
      state.ending = 'handover';
    }
    const { answer, retries } = handleExchange(state, request, input.cases);
    for (const job of retries) void retry(job);
    return answer;
  });

  // A `--batch` run's replies come through the provider's batches first; the pool then finds them in the cache.
  if (input.batch && !carry) await batchRounds({ ...input, batch: input.batch }, batch);
  for (;;) {
    const step = nextStep(state, updates >= UPDATES_PER_RUN || workflowInfo().continueAsNewSuggested);
    if (step === 'done' || step === 'stop') break;
    if (step === 'wait') {
      const retrying = state.queue.retrying.length;
      await condition(() => waiting(state.queue) > 0 || state.queue.retrying.length < retrying);
      continue;
    }
    if (step === 'continue-as-new') {
      await condition(allHandlersFinished);
      const { holder: _holder, ending: _ending, ...kept } = state;
      return continueAsNew<typeof experiment>(input, { state: kept, pauses });
    }
    const activityId = `pool-${++pools}`;
    state.holder = holderOf(activityId, 1);
    const want = firstLease(input.parallelism);
    const first = lease(state.queue, state.holder, want);
    const { ended, settled } = await pool(activityId)({
      runId: input.runId,
      experimentId: input.experimentId,
      workflowId: workflowInfo().workflowId,
      dataset: input.dataset,
      contender: input.contender,
      parallelism: input.parallelism,
      ...(input.plan ? { plan: input.plan } : {}),
      first: first.map((i) => leased(i, input.cases)),
      more: first.length === want && waiting(state.queue) > 0,
    });
    const last = handleExchange(state, { holder: state.holder, settled, want: 0 }, input.cases);
    for (const job of last.retries) void retry(job);
    // Whatever the pool held and did not report goes back to wait for the next one.
    releaseOthers(state.queue);
    state.holder = undefined;
    if (ended === 'stopped') state.ending = 'stopped';
    pauses = ended === 'paused' ? pauses + 1 : 0;
    if (ended === 'paused') await sleep(pauseDelay(pauses) * 1000);
  }
  await condition(allHandlersFinished);
  const { done, errors, total } = state.queue;
  return {
    experimentId: input.experimentId,
    total,
    done,
    errors,
    ...(state.ending === 'stopped' && done < total ? { stopped: true } : {}),
  };
}
