import { renderMatrix } from '../report/matrix-table.ts';
import { renderLeaderboard } from '../report/leaderboard.ts';
import { shortPath } from '../suite/cases.ts';
import { executeRun } from './execute-run.ts';
import type { Io } from './io.ts';
import type { RunFlags } from './options.ts';
import { estimateRun, planRun } from './plan-run.ts';
import { renderBreakdown } from '../report/breakdown.ts';

/** `compare` (C4) and `run -m` (C3): with `-n`, print the expanded matrix and estimate; else run, save and show the leaderboard. */
export async function compareCommand(flags: RunFlags, io: Io, models?: string[]): Promise<number> {
  const planned = await planRun(flags, io, models);
  if (flags.dryRun) {
    io.stdout.write(renderMatrix(planned.plan, await estimateRun(planned)) + '\n');
    return 0;
  }
  const { snapshot, file } = await executeRun(planned, flags, io, models ? 'run' : 'compare');
  if (models) io.stdout.write(renderBreakdown(snapshot) + '\n');
  io.stdout.write(renderLeaderboard(snapshot) + '\n');
  io.stderr.write(`snapshot saved: ${shortPath(io.cwd, file)}\n`);
  return 0;
}
