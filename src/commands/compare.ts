import type { Io } from '../cli/io.ts';
import type { RunFlags } from '../cli/options.ts';
import { compareRun } from '../session/compare-run.ts';
import { mark } from '../timing.ts';
import { runRequestOf } from './request.ts';

/** `compare` and `run -m`: with `-n`, print the expanded matrix and estimate; else run, save and report. */
export async function compareCommand(flags: RunFlags, io: Io, models?: string[]): Promise<number> {
  mark('compare');
  return compareRun(runRequestOf(flags, models), io, models ? 'run' : 'compare');
}
