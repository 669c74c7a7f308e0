import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { RunFlags } from '../cli/options.ts';
import { renderMatrix } from '../report/matrix-table.ts';
import { estimateRun, maxTokensWarnings } from '../session/estimate-run.ts';
import { planRun } from '../session/plan-run.ts';
import { presentRun } from '../session/present.ts';
import { shortPath } from '../suite/cases.ts';
import { mark } from '../timing.ts';

/** `compare` (C4) and `run -m` (C3): with `-n`, print the expanded matrix and estimate; else run, save and report. */
export async function compareCommand(flags: RunFlags, io: Io, models?: string[]): Promise<number> {
  mark('compare');
  const planned = await planRun(flags, io, models);
  mark('planned');
  if (flags.dryRun) {
    for (const warning of maxTokensWarnings(planned))
      io.stderr.write(pc.yellow(`warning: ${warning}`) + '\n');
    io.stdout.write(renderMatrix(planned.plan, await estimateRun(planned), { width: io.columns }) + '\n');
    return 0;
  }
  // Temporal's SDK is loaded only for a run: `-n` answers at once.
  const { runPlanned } = await import('../session/run.ts');
  mark('run module');
  const { snapshot, file } = await runPlanned(planned, flags, io, models ? 'run' : 'compare');
  io.stderr.write(`snapshot saved: ${shortPath(io.cwd, file)}\n`);
  const code = await presentRun(snapshot, file, planned.suite, flags, io, { breakdown: Boolean(models) });
  mark('presented');
  return code;
}
