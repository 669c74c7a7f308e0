import type { Io } from '../cli/io.ts';
import type { RunFlags } from '../cli/options.ts';
import type { Tracking } from '../core/tracking.ts';
import { startHeadStart, type HeadStart } from '../temporal/head-start.ts';
import type { PlannedRun } from './plan-run.ts';
import { checkBeforeRun, prepareSuite } from './prepare.ts';
import { newRunId } from './run-id.ts';
import { chooseTracking } from './trackers.ts';

/** What is settled of a run before Temporal's SDK loads: its checks passed, its id, its tracker, its first calls. */
export interface RunBegun {
  runId: string;
  tracking: Tracking;
  headStart?: HeadStart;
}

/**
 * Everything a run does before its first call — the suite's env files and beforeRun hook, verify's checks (C3, C4),
 * the tracker (T4) — then its first calls, if they can start now (startHeadStart).
 */
export async function beginRun(planned: PlannedRun, flags: RunFlags, io: Io): Promise<RunBegun> {
  await prepareSuite(planned.suite, io);
  await checkBeforeRun(planned, flags, io);
  const tracking = await chooseTracking(planned.suite, flags, io);
  const runId = newRunId();
  const headStart = await startHeadStart({ ...planned, runId, tracking, env: io.env });
  // Its calls are paid from now: a Ctrl-C no longer ends the process but stops the run once it is made, its calls
  // reported (serveRun), so that they are not paid again; it starts no more of them.
  const interrupt = headStart ? io.watchInterrupt?.() : undefined;
  if (interrupt) headStart?.stopWhen(interrupt);
  return { runId, tracking, ...(headStart ? { headStart } : {}) };
}
