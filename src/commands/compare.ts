import { deliverReports } from '../report/deliver.ts';
import { renderMatrix } from '../report/matrix-table.ts';
import { readSnapshot } from '../report/save.ts';
import { shortPath } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { executeRun } from './execute-run.ts';
import type { Io } from './io.ts';
import type { RunFlags } from './options.ts';
import { estimateRun, planRun } from './plan-run.ts';

/**
 * Shows a saved run as the flags and the lineup's `results.display` ask; every display is rendered from the saved
 * snapshot, exactly as `render` would rebuild it later. Returns the exit code: an aborted or partial run is 1.
 */
export async function presentRun(
  file: string,
  suite: LoadedSuite,
  flags: RunFlags,
  io: Io,
  defaults: { display?: 'none' | 'tui' | 'browser' | 'both'; breakdown?: boolean } = {},
): Promise<number> {
  const snapshot = readSnapshot(file);
  await deliverReports(
    snapshot,
    {
      display: flags.display ?? defaults.display ?? suite.config.values.results?.display ?? 'both',
      format: flags.format,
      output: flags.output,
      open: flags.open !== false,
      snapshotFile: file,
      baseDir: suite.projectDir,
      totals: flags.totals,
      scores: flags.scores,
      breakdown: Boolean(defaults.breakdown),
    },
    io,
  );
  // An aborted run reports what finished, then fails the command (S10, S11).
  return snapshot.status === 'completed' ? 0 : 1;
}

/** `compare` (C4) and `run -m` (C3): with `-n`, print the expanded matrix and estimate; else run, save and report. */
export async function compareCommand(flags: RunFlags, io: Io, models?: string[]): Promise<number> {
  const planned = await planRun(flags, io, models);
  if (flags.dryRun) {
    io.stdout.write(renderMatrix(planned.plan, await estimateRun(planned), { width: io.columns }) + '\n');
    return 0;
  }
  const { file } = await executeRun(planned, flags, io, models ? 'run' : 'compare');
  io.stderr.write(`snapshot saved: ${shortPath(io.cwd, file)}\n`);
  return presentRun(file, planned.suite, flags, io, { breakdown: Boolean(models) });
}
