import type { Io } from '../cli/io.ts';
import type { RunRequest } from '../core/request.ts';
import type { Tracking } from '../core/tracking.ts';
import { refuseEmptyCache } from './cache-use.ts';
import type { PlannedRun } from './plan-run.ts';
import { checkBeforeRun, prepareSuite } from './prepare.ts';
import { newRunId } from './run-id.ts';
import { chooseTracking } from './trackers.ts';

/** What is settled of a run before Temporal's SDK loads: its checks passed, its id, its tracker. */
export interface RunBegun {
  runId: string;
  tracking: Tracking;
}

/**
 * Everything a run does before its first call, for `compare` and `start` alike: `--cache-only`'s refusal of an empty
 * cache, the suite's env files and beforeRun hook, verify's checks, the tracker.
 */
export async function beginRun(planned: PlannedRun, request: RunRequest, io: Io): Promise<RunBegun> {
  if (request.cache === 'only') await refuseEmptyCache(io.env);
  await prepareSuite(planned.suite, io);
  await checkBeforeRun(planned, request.checks, io);
  const tracking = await chooseTracking(planned.suite, request.tracking, request.suite.verbose, io);
  const runId = newRunId();
  return { runId, tracking };
}
