import { createRunCase } from './run-case.ts';
import { createRunCases, type PoolDeps } from './run-cases.ts';
import { createTrack, type TrackDeps } from './track.ts';

export type { CaseDeps, CaseTask } from './case-runner.ts';
export type { ExperimentClient, PoolDeps, PoolInput, PoolResult } from './run-cases.ts';
export type { RunReader, TrackDeps, TrackTask } from './track.ts';

/** The activities a worker registers, built around the suite it loaded. */
export function createActivities(deps: PoolDeps & { track: TrackDeps }) {
  return { runCases: createRunCases(deps), runCase: createRunCase(deps), track: createTrack(deps.track) };
}

/** The activities' types, for workflows' `proxyActivities`. */
export type Activities = ReturnType<typeof createActivities>;
