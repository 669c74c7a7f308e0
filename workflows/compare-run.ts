import {
  continueAsNew,
  executeChild,
  getExternalWorkflowHandle,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { gateWorkflowId, sliceCount, sliceWorkflowId, type RunInput } from '../src/core/run-input.ts';
import { experimentSlice } from './experiment-slice.ts';
import { runProgressQuery, type ExperimentProgress } from './messages.ts';
import { finishSignal } from './run-gate.ts';

/** What a run carries across continue-as-new: per experiment, the slices and cases done so far, and whether it stopped. */
export interface RunCarry {
  done: Record<string, { slices: number; cases: number; errors: number }>;
  stopped?: boolean;
}

/** The finished run: per experiment, how many slices it had, so each slice's results can be fetched by id. */
export interface RunResult {
  runId: string;
  /** `aborted` when the gate stopped the run (abort_after, or a pause answered with stop). */
  state: 'completed' | 'aborted';
  experiments: { id: string; slices: number; cases: number; errors: number }[];
}

/** Upper bound on experiments in flight, far below Temporal's 2,000 pending children per workflow. */
const MAX_LANES = 500;

/** A run: one slice workflow after another per experiment, `concurrency` experiments at once; continues as new when its history grows. */
export async function compareRun(input: RunInput, carry: RunCarry = { done: {} }): Promise<RunResult> {
  const progress: ExperimentProgress[] = input.experiments.map((e) => {
    const done = carry.done[e.id];
    const total = input.datasets[e.dataset]!.length;
    const finished = done !== undefined && done.cases >= total;
    return {
      id: e.id,
      total,
      done: done?.cases ?? 0,
      errors: done?.errors ?? 0,
      state: finished ? 'completed' : 'pending',
    };
  });
  setHandler(runProgressQuery, () => ({ runId: input.runId, experiments: progress }));
  const queue = input.experiments
    .map((e, i) => ({ ...e, progress: progress[i]! }))
    .filter((e) => e.progress.state !== 'completed');
  let draining = false;
  const lane = async () => {
    while (!draining && !carry.stopped && queue.length > 0) {
      const experiment = queue.shift()!;
      const cases = input.datasets[experiment.dataset]!;
      const slices = sliceCount(cases.length, input.sliceSize);
      const done = (carry.done[experiment.id] ??= { slices: 0, cases: 0, errors: 0 });
      experiment.progress.state = 'running';
      while (done.slices < slices) {
        if (workflowInfo().continueAsNewSuggested) {
          draining = true;
          queue.unshift(experiment);
          return;
        }
        const workflowId = sliceWorkflowId(input.runId, experiment.id, done.slices);
        experiment.progress.runningSlice = workflowId;
        const { results, stopped } = await executeChild(experimentSlice, {
          workflowId,
          searchAttributes: { LlmEvalsRunId: [input.runId] },
          args: [
            {
              runId: input.runId,
              experimentId: experiment.id,
              dataset: experiment.dataset,
              contender: input.contenders[experiment.contender]!,
              cases: cases.slice(done.slices * input.sliceSize, (done.slices + 1) * input.sliceSize),
              parallelism: input.parallelism,
            },
          ],
        });
        done.slices++;
        done.cases += results.length;
        done.errors += results.filter((r) => r.status !== 'scored').length;
        Object.assign(experiment.progress, {
          done: done.cases,
          errors: done.errors,
          runningSlice: undefined,
        });
        if (stopped) {
          carry.stopped = true;
          return;
        }
      }
      experiment.progress.state = 'completed';
    }
  };
  const lanes = input.concurrency === 0 ? input.experiments.length : input.concurrency;
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, MAX_LANES)) }, lane));
  if (queue.length > 0 && !carry.stopped) await continueAsNew<typeof compareRun>(input, carry);
  await getExternalWorkflowHandle(gateWorkflowId(input.runId)).signal(finishSignal);
  const state = carry.stopped ? 'aborted' : 'completed';
  upsertSearchAttributes({ LlmEvalsState: [state] });
  return {
    runId: input.runId,
    state,
    experiments: input.experiments.map((e) => ({
      id: e.id,
      // The slices that ran: an aborted run never started the rest, and they have no workflow to read.
      slices: carry.done[e.id]?.slices ?? 0,
      cases: carry.done[e.id]?.cases ?? 0,
      errors: carry.done[e.id]?.errors ?? 0,
    })),
  };
}
