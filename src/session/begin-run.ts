import type { Io } from '../cli/io.ts';
import type { RunFlags } from '../cli/options.ts';
import type { Tracking } from '../core/tracking.ts';
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
 * Everything a run does before its first call: the suite's env files and beforeRun hook, verify's checks, the tracker.
 */
export async function beginRun(planned: PlannedRun, flags: RunFlags, io: Io): Promise<RunBegun> {
  await prepareSuite(planned.suite, io);
  await checkBeforeRun(planned, flags, io);
  const tracking = await chooseTracking(planned.suite, flags, io);
  const runId = newRunId();
  return { runId, tracking };
}
