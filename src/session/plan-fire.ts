import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { RunRequest } from '../core/request.ts';
import type { RunInput } from '../core/run-input.ts';
import type { ScheduledRunSpec } from '../core/schedule-spec.ts';
import type { RunHeader } from '../core/snapshot.ts';
import { reloadLineup, type LoadedSuite } from '../suite/load.ts';
import { planSuite } from './plan-run.ts';
import { checkBeforeRun } from './prepare.ts';
import { prepareStart } from './run.ts';
import { chooseTracking } from './trackers.ts';

/**
 * Plans a schedule's fire in a worker of the suite: the lineup and cases as they are on disk now, the request
 * `schedule create` kept, under the run id the scheduled workflow chose; the suite's code is what the worker loaded.
 */
export async function planFire(
  suite: LoadedSuite,
  spec: ScheduledRunSpec,
  request: RunRequest,
  runId: string,
  io: Io,
): Promise<{ input: RunInput; header: RunHeader }> {
  io.stderr.write(`planning ${pc.bold(runId)}, a fire of schedule ${pc.bold(spec.schedule.name)}\n`);
  const planned = await planSuite(reloadLineup(suite), request, io);
  // The same checks as `start`, at the fire: a case broken since `schedule create` fails the fire, calling nothing.
  await checkBeforeRun(planned, request.checks, io);
  // The tracker is chosen at the fire too, as `start` chooses it: the request, the lineup, then the key set now.
  const tracking = await chooseTracking(planned.suite, request.tracking, request.suite.verbose, io);
  const { input, header } = prepareStart(planned, tracking, runId);
  return { input, header };
}
