import { createBatchActivities } from './batch.ts';
import { heartbeating } from './heartbeat.ts';
import { createPlanCases } from './plan-cases.ts';
import { createRunCase } from './run-case.ts';
import { createRunCases, type PoolDeps } from './run-cases.ts';
import { createScheduleActivities, type ScheduleDeps } from './plan-and-judge.ts';
import { createTrack, type TrackDeps } from './track.ts';

export type { BatchRef, BatchRoundTask, ReceivedBatch, SubmittedBatch } from './batch.ts';
export type { CaseDeps, CaseTask } from './case-runner.ts';
export type { ExperimentClient, PoolDeps, PoolInput, PoolResult } from './run-cases.ts';
export type { Judged, PlannedFire, ScheduleDeps } from './plan-and-judge.ts';
export type { RunReader, TrackDeps, TrackTask } from './track.ts';

/** The activities a worker registers, built around the suite it loaded and its reads of runs in Temporal. */
export function createActivities(given: PoolDeps & ScheduleDeps & { track: TrackDeps }) {
  // One reader of the runs' case lists for the pools, the retries and the batch rounds: a plan is read and kept once.
  const deps = { ...given, plans: given.plans ?? createPlanCases(given) };
  const { planScheduledRun, judgeRun } = createScheduleActivities(deps);
  const batch = createBatchActivities(deps);
  // Every activity heartbeats: the pools on their own schedule (run-cases.ts), the others while they work.
  return {
    runCases: createRunCases(deps),
    runCase: heartbeating(createRunCase(deps)),
    track: heartbeating(createTrack(deps.track)),
    planScheduledRun: heartbeating(planScheduledRun),
    judgeRun: heartbeating(judgeRun),
    submitBatch: heartbeating(batch.submitBatch),
    pollBatch: batch.pollBatch,
    cancelBatch: batch.cancelBatch,
    receiveBatch: heartbeating(batch.receiveBatch),
  };
}

/** The activities' types, for workflows' `proxyActivities`. */
export type Activities = ReturnType<typeof createActivities>;
