import type { Io } from '../cli/io.ts';
import type { Showing } from '../core/request.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { deliverReports } from '../output/deliver.ts';
import { openInBrowser } from '../output/open-browser.ts';
import { renderEstimateLine } from '../report/estimate-line.ts';
import { renderJudgeLine } from '../report/judge-line.ts';
import { namedFailures } from '../report/failures.ts';
import { renderTracking, trackerPages } from '../report/tracking.ts';
import type { LoadedSuite } from '../suite/load.ts';
import pc from 'picocolors';

/** How `results.display` may show a run. */
export type Display = 'none' | 'tui' | 'browser' | 'both';

/**
 * Shows a saved run as the request and the lineup's `results.display` ask, rendered from the snapshot exactly as saved
 * (`saveSnapshot` left it as its file reads back, so `render` rebuilds the same report later). Returns the exit code:
 * an aborted or partial run is 1, and so is one in which a contender produced no scored case, unless
 * `--allow-failures`.
 */
export async function presentRun(
  snapshot: Snapshot,
  file: string,
  suite: LoadedSuite,
  show: Showing,
  io: Io,
  defaults: { display?: Display; breakdown?: boolean } = {},
): Promise<number> {
  await deliverReports(
    snapshot,
    {
      display: show.display ?? defaults.display ?? suite.config.values.results?.display ?? 'both',
      format: show.format,
      output: show.output,
      open: show.open,
      snapshotFile: file,
      baseDir: suite.projectDir,
      totals: show.totals,
      scores: show.scores,
      breakdown: Boolean(defaults.breakdown),
    },
    io,
  );
  for (const line of renderTracking(snapshot)) io.stderr.write(line + '\n');
  // The remote tracker's page opens like the report's, unless --no-open.
  if (show.open) {
    for (const page of trackerPages(snapshot)) {
      const why = await openInBrowser(page, io.env);
      if (why) io.stderr.write(`not opened: ${why}\n`);
    }
  }
  const closing = renderEstimateLine(snapshot);
  if (closing) io.stderr.write(pc.dim(closing) + '\n');
  const judge = renderJudgeLine(snapshot);
  if (judge) io.stderr.write(pc.dim(judge) + '\n');
  // An aborted run reports what finished, then fails the command.
  if (snapshot.status !== 'completed') return 1;
  // A contender with nothing scored is a broken setup (a wrong id, a server down), not a result: say so in the code.
  const failed = namedFailures(snapshot).filter((f) => f.scored === 0);
  if (failed.length === 0 || show.allowFailures) return 0;
  const names = failed.map((f) => f.name).join(', ');
  io.stderr.write(
    pc.red(`${failed.length === 1 ? 'a contender' : 'contenders'} with no scored case: ${names}`) +
      pc.dim(' (exit 1; --allow-failures accepts it)') +
      '\n',
  );
  return 1;
}
