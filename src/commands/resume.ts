import type { Io } from '../cli/io.ts';
import type { RunFlags } from '../cli/options.ts';
import { resumeRun } from '../session/resume-run.ts';
import { runRequestOf } from './request.ts';

/**
 * `resume RUN`: a worker plus the live view; the run continues where it stopped, finished cases are not called again.
 * With `--retry-errors`, a run whose cases ended in errors is followed by a new run that calls those again.
 */
export async function resumeCommand(runId: string, flags: RunFlags, io: Io): Promise<number> {
  return resumeRun(runId, runRequestOf(flags), Boolean(flags.retryErrors), io);
}
