import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { RunFlags } from '../cli/options.ts';
import type { RunInput } from '../core/run-input.ts';
import type { ScheduledRunSpec } from '../core/schedule-spec.ts';
import type { RunHeader } from '../core/snapshot.ts';
import { reloadLineup, type LoadedSuite } from '../suite/load.ts';
import { planSuite } from './plan-run.ts';
import { checkBeforeRun } from './prepare.ts';
import { prepareStart } from './run.ts';
import { chooseTracking } from './trackers.ts';

/**
 * Plans a schedule's fire in a worker of the suite: the lineup and cases as they are on disk now, the flags given
 * to `schedule create`, under the run id the scheduled workflow chose; the suite's code is what the worker loaded.
 */
export async function planFire(
  suite: LoadedSuite,
  spec: ScheduledRunSpec,
  runId: string,
  io: Io,
): Promise<{ input: RunInput; header: RunHeader }> {
  io.stderr.write(`planning ${pc.bold(runId)}, a fire of schedule ${pc.bold(spec.schedule.name)}\n`);
  const flags = spec.flags as RunFlags;
  const planned = await planSuite(reloadLineup(suite), flags, io, flags.models);
  // The same checks as `start`, at the fire: a case broken since `schedule create` fails the fire, calling nothing.
  await checkBeforeRun(planned, flags, io);
  // The tracker is chosen at the fire too, as `start` chooses it: the flags, the lineup, then the key set now.
  const tracking = await chooseTracking(planned.suite, flags, io);
  const { input, header } = prepareStart(planned, tracking, runId);
  return { input, header };
}
