import { resolve } from 'node:path';
import { deliverReports } from '../output/deliver.ts';
import type { ReportFormat } from '../report/report-formats.ts';
import { readSnapshot } from '../output/save.ts';
import type { Io } from '../cli/io.ts';

/** The flags of `render`. */
export interface RenderFlags {
  output?: string | boolean;
  format?: ReportFormat;
  totals?: 'overall' | 'variant' | 'both';
  scores?: boolean;
  open?: boolean;
}

/**
 * `render FILE.json`: a saved run's report with no model call; HTML by default, beside the snapshot or at `-o`,
 * byte for byte what `compare` wrote. `--format tui|json` prints to stdout instead, unless `-o` names a file.
 */
export async function renderCommand(file: string, flags: RenderFlags, io: Io): Promise<number> {
  const snapshotFile = resolve(io.cwd, file);
  const snapshot = readSnapshot(snapshotFile);
  const format = flags.format ?? (flags.output ? undefined : 'html');
  const toStdout = flags.output === '-' || (!flags.output && format !== 'html');
  await deliverReports(
    snapshot,
    {
      display: 'none',
      ...(toStdout ? { format: format ?? 'html' } : { format, output: flags.output ?? true }),
      open: false,
      snapshotFile,
      baseDir: io.cwd,
      fromFile: true,
      totals: flags.totals,
      scores: flags.scores,
    },
    io,
  );
  return 0;
}
