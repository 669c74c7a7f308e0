import {
  CancellationScope,
  condition,
  continueAsNew,
  executeChild,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ScoreRow } from '../src/core/run-change.ts';
import { datasetSize, gateWorkflowId, experimentWorkflowId, type RunInput } from '../src/core/run-input.ts';
import {
  experimentStates,
  experimentsToStart,
  experimentsAtOnce,
  runFinished,
  type RunCarry,
} from '../src/core/run-order.ts';
import { TRACK_ATTEMPTS } from '../src/core/retry.ts';
import type { Tracked } from '../src/core/tracking.ts';
import type { Activities } from '../activities/index.ts';
import { experiment } from './experiment.ts';
import { finishSignal, runProgressQuery } from './messages.ts';

/** The finished run: its state and each experiment's counts; the case results are read from the experiments. */
export interface RunResult {
  runId: string;
  /**
   * `aborted` when the gate stopped the run (abort_after, or a pause answered with stop); `regressed` when a scheduled
   * run fell below its schedule's bar.
   */
  state: 'completed' | 'aborted' | 'regressed';
  experiments: { id: string; cases: number; errors: number; tracked?: Tracked }[];
  /** A scheduled run: each contender's figures per dataset (its schedule's trend reads them), and why it regressed. */
  scores?: ScoreRow[];
  regression?: string[];
}

/** How long a track, a judgement or a scheduled run's planning may go without a heartbeat before it runs elsewhere. */
export const WORK_HEARTBEAT_TIMEOUT = '15 seconds';

/** The patch under which a run finishes its gate while its trackers send (before: once they had sent). */
const GATE_FINISHES_WHILE_TRACKING = 'gate-finishes-while-tracking';

/**
 * The patch under which a cancelled run closes only once its experiments have (before: at once, and Temporal then
 * terminated them, dropping the replies of the calls their pools had in flight).
 */
const CANCEL_WAITS_FOR_EXPERIMENTS = 'cancel-waits-for-experiments';

const { track } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  // A worker killed mid-send is noticed by its silence, not after the ten minutes (activities/heartbeat.ts).
  heartbeatTimeout: WORK_HEARTBEAT_TIMEOUT,
  // The last try reports a failing tracker as its result's problem rather than failing.
  retry: { maximumAttempts: TRACK_ATTEMPTS, initialInterval: '1 second', backoffCoefficient: 2 },
});

/** The reason an activity failed: its cause's message, not the wrapper's "Activity task failed". */
function reasonOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** Judges a scheduled run on a worker, which reads this run's results and the previous run's from Temporal. */
const { judgeRun } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: WORK_HEARTBEAT_TIMEOUT,
  retry: { maximumAttempts: 5 },
});

/** A run: one child workflow per experiment, `concurrency` at once; continues as new when its history grows. */
export async function compareRun(input: RunInput, carry: RunCarry = { done: {} }): Promise<RunResult> {
  const order = input.experiments.map((e) => e.id);
  const running = new Set<string>();
  const sizes = input.experiments.map((e) => ({ id: e.id, total: datasetSize(input, e.dataset) }));
  setHandler(runProgressQuery, () => ({
    runId: input.runId,
    experiments: experimentStates(sizes, carry, running),
  }));
  const atOnce = experimentsAtOnce(input.concurrency, order.length);
  let failure: Error | undefined;
  const tracked = (carry.tracked ??= {});
  const sending = new Set<string>();
  // Once an experiment's results are durable, its trackers get them, on the run's task queue, by a worker that has
  // the suite and the keys; a tracker that fails is reported, never failing the run. Runs started before trackers
  // carry no `tracking` and send nothing, so their histories replay unchanged.
  const send = (id: string) => {
    if (!input.tracking) return;
    sending.add(id);
    void track({ runId: input.runId, experimentId: id, tracking: input.tracking })
      .then(
        (outcome) => (tracked[id] = outcome),
        (error: unknown) => (tracked[id] = { problem: reasonOf(error) }),
      )
      .finally(() => sending.delete(id));
  };
  const start = (id: string) => {
    const e = input.experiments.find((x) => x.id === id)!;
    running.add(id);
    void executeChild(experiment, {
      workflowId: experimentWorkflowId(input.runId, id),
      searchAttributes: { LlmEvalsRunId: [input.runId] },
      args: [
        {
          runId: input.runId,
          experimentId: id,
          dataset: e.dataset,
          contender: input.contenders[e.contender]!,
          // The cases by reference: their list grows with the suite, past what a workflow input may carry.
          ...(input.plan
            ? {
                total: datasetSize(input, e.dataset),
                plan: {
                  plan: input.plan.digest,
                  dataset: e.dataset,
                  digest: input.plan.datasets[e.dataset]!.digest,
                },
              }
            : { cases: input.datasets![e.dataset]! }),
          parallelism: input.parallelism,
          ...(input.batch ? { batch: input.batch } : {}),
        },
      ],
    }).then(
      (summary) => {
        carry.done[id] = {
          cases: summary.done,
          errors: summary.errors,
          ...(summary.stopped ? { stopped: true } : {}),
        };
        if (summary.stopped) carry.stopped = true;
        running.delete(id);
        send(id);
      },
      (error: unknown) => {
        // A failed experiment is a bug of ours: the run fails with it (cancellation arrives the same way).
        failure ??= error instanceof Error ? error : new Error(String(error));
        running.delete(id);
      },
    );
  };
  let draining = false;
  try {
    while (!runFinished(order, carry, running)) {
      if (failure) throw failure;
      draining ||= workflowInfo().continueAsNewSuggested;
      for (const id of experimentsToStart(order, carry, running, atOnce, draining)) start(id);
      if (draining && running.size === 0 && sending.size === 0) {
        return continueAsNew<typeof compareRun>(input, carry);
      }
      const before = running.size;
      const finished = Object.keys(carry.done).length;
      const sent = sending.size;
      await condition(
        () => running.size < before || Object.keys(carry.done).length > finished || sending.size < sent,
      );
    }
  } catch (error) {
    // Cancelled, the run asked its experiments to cancel too; each closes once its pool has reported the calls it
    // had in flight, paid for (and a batch run's experiments have cancelled their providers' batches). Closing before
    // them would have Temporal terminate them and drop those replies.
    if (isCancellation(error) && (patched(CANCEL_WAITS_FOR_EXPERIMENTS) || input.batch))
      await CancellationScope.nonCancellable(() => condition(() => running.size === 0));
    throw error;
  }
  const finishGate = () => getExternalWorkflowHandle(gateWorkflowId(input.runId)).signal(finishSignal);
  // The gate has nothing left to decide once every experiment ended: it finishes while the trackers send, one
  // workflow task and a signal's round trip fewer between the last tracker and the run's close. Runs that started
  // before finished the gate after their trackers, and replay so.
  if (patched(GATE_FINISHES_WHILE_TRACKING)) {
    const finished = finishGate();
    await condition(() => sending.size === 0);
    await finished;
  } else {
    await condition(() => sending.size === 0);
    await finishGate();
  }
  let state: RunResult['state'] = carry.stopped ? 'aborted' : 'completed';
  // Only a scheduled run that completed is judged: an aborted one is an error of the run, not a regression.
  const judged =
    input.schedule && state === 'completed'
      ? await judgeRun({ runId: input.runId, schedule: input.schedule })
      : undefined;
  if (judged?.regression.length) state = 'regressed';
  upsertSearchAttributes({ LlmEvalsState: [state] });
  return {
    runId: input.runId,
    state,
    experiments: order.map((id) => ({
      id,
      cases: carry.done[id]?.cases ?? 0,
      errors: carry.done[id]?.errors ?? 0,
      ...(tracked[id] ? { tracked: tracked[id] } : {}),
    })),
    ...(judged ? { scores: judged.scores, regression: judged.regression } : {}),
  };
}
