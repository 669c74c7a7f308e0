import { heartbeating } from './heartbeat.ts';
import { createRunCase } from './run-case.ts';
import { createRunCases, type PoolDeps } from './run-cases.ts';
import { createScheduleActivities, type ScheduleDeps } from './schedule.ts';
import { createTrack, type TrackDeps } from './track.ts';

export type { CaseDeps, CaseTask } from './case-runner.ts';
export type { ExperimentClient, PoolDeps, PoolInput, PoolResult } from './run-cases.ts';
export type { Judged, PlannedFire, ScheduleDeps } from './schedule.ts';
export type { RunReader, TrackDeps, TrackTask } from './track.ts';

/** The activities a worker registers, built around the suite it loaded and its reads of runs in Temporal. */
export function createActivities(deps: PoolDeps & ScheduleDeps & { track: TrackDeps }) {
  const schedule = createScheduleActivities(deps);
  return {
    runCases: createRunCases(deps),
    runCase: createRunCase(deps),
    track: heartbeating(createTrack(deps.track)),
    planScheduledRun: heartbeating((task: Parameters<typeof schedule.planScheduledRun>[0]) =>
      schedule.planScheduledRun(task),
    ),
    judgeRun: heartbeating((task: Parameters<typeof schedule.judgeRun>[0]) => schedule.judgeRun(task)),
  };
}

/** The activities' types, for workflows' `proxyActivities`. */
export type Activities = ReturnType<typeof createActivities>;
