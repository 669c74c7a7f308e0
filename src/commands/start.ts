import type { Io } from '../cli/io.ts';
import type { StartFlags } from '../cli/options.ts';
import { startRun } from '../session/start-run.ts';
import { runRequestOf } from './request.ts';

/** `start`: plans and starts a run, prints its id and returns; a detached worker serves it unless `--no-worker`. */
export async function startCommand(flags: StartFlags, io: Io): Promise<number> {
  return startRun(runRequestOf(flags, flags.models), flags.worker !== false, io);
}
