import type { Io } from '../cli/io.ts';
import type { RunFlags } from '../cli/options.ts';
import { rescoreRun } from '../session/rescore.ts';
import { runRequestOf } from './request.ts';

/** `rescore RUN|FILE`: a run's saved replies graded again with the suite's current scorer; no model call. */
export async function rescoreCommand(target: string, flags: RunFlags, io: Io): Promise<number> {
  return rescoreRun(target, runRequestOf(flags), io);
}
