import { continueAsNew, executeChild, setHandler, workflowInfo } from '@temporalio/workflow';
import { sliceCount, sliceWorkflowId, type RunInput } from '../src/core/run-input.ts';
import { experimentSlice } from './experiment-slice.ts';
import { runProgressQuery, type ExperimentProgress } from './messages.ts';

/** What a run carries across continue-as-new: per experiment, the slices and cases done so far. */
export interface RunCarry {
  done: Record<string, { slices: number; cases: number; errors: number }>;
}

/** The finished run: per experiment, how many slices it had, so each slice's results can be fetched by id. */
export interface RunResult {
  runId: string;
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
    while (!draining && queue.length > 0) {
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
        const { results } = await executeChild(experimentSlice, {
          workflowId,
          args: [
            {
              runId: input.runId,
              experimentId: experiment.id,
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
      }
      experiment.progress.state = 'completed';
    }
  };
  const lanes = input.concurrency === 0 ? input.experiments.length : input.concurrency;
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, MAX_LANES)) }, lane));
  if (queue.length > 0) await continueAsNew<typeof compareRun>(input, carry);
  return {
    runId: input.runId,
    experiments: input.experiments.map((e) => ({
      id: e.id,
      slices: sliceCount(input.datasets[e.dataset]!.length, input.sliceSize),
      cases: carry.done[e.id]?.cases ?? 0,
      errors: carry.done[e.id]?.errors ?? 0,
    })),
  };
}
