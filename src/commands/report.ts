import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { attachAgreement } from '../session/labels.ts';
import { openSuite } from '../session/open-suite.ts';
import type { RunFlags } from '../cli/options.ts';
import { saveRunSnapshot } from '../output/save.ts';
import { collectSnapshot } from '../session/collect.ts';
import { linkForCommand } from '../session/link.ts';
import { presentRun } from '../session/present.ts';
import { eachCase } from '../suite/cases.ts';
import { mark } from '../timing.ts';
import { saveChoiceOf, showingOf, suitePlaceOf } from './request.ts';

/**
 * `report RUN`: the run's reports from Temporal's data, also for a run still going (then it says partial). The
 * snapshot it renders from is written to the temp dir, never over a finished run's saved snapshot. Exits 1 for a
 * regressed, cancelled, aborted or failed run, and for a completed one in which a contender scored nothing unless
 * `--allow-failures`, as `compare`.
 */
export async function reportCommand(runId: string, flags: RunFlags, io: Io): Promise<number> {
  // A read of a run: the info box would stand above every report a script asks for, and tell nothing it needs.
  const suite = await openSuite(suitePlaceOf(flags), io, false);
  const link = await linkForCommand(suite.projectDir, io, 'report');
  try {
    // The cases are read one by one once the results are, and the snapshot keeps those the run planned: the suite is
    // never held as loaded (100,000 cases of it were 50 MB alive beside the results).
    const snapshot = await collectSnapshot(link, eachCase(suite.root, suite.casesGlob), runId);
    mark('collected');
    if (snapshot.status !== 'completed' && snapshot.status !== 'regressed') {
      const total = snapshot.experiments.reduce((n, e) => n + e.caseKeys.length, 0);
      const so = snapshot.status === 'partial' ? ' so far' : '';
      const note = `partial report: run ${runId} is ${snapshot.status}; ${snapshot.results.length} of ${total} case results${so}`;
      io.stderr.write(pc.yellow(note) + '\n');
    }
    attachAgreement(snapshot, suite, io);
    const file = saveRunSnapshot(snapshot, suite, { ...saveChoiceOf(flags), autosave: false });
    mark('saved');
    // With -o the report goes to the file: the table is printed only when --display asks for it too.
    const display = flags.output ? 'none' : 'tui';
    const code = await presentRun(snapshot, file, suite, showingOf(flags), io, { display });
    // A regressed run fails the report, so CI can gate on it.
    if (snapshot.status === 'regressed') {
      io.stderr.write(pc.red(`run ${runId} regressed: ${snapshot.regression?.join('; ') ?? ''}`) + '\n');
      return 1;
    }
    // A completed run exits as its compare did: 1 when a contender scored nothing, unless --allow-failures. A run
    // cancelled, aborted or failed did not complete: 1, as its compare exited (SPEC's 1 is "run failed/aborted"), so
    // a script never takes its report for a complete one. A run still going is not failed: its partial report is 0.
    if (snapshot.status === 'partial') return 0;
    return snapshot.status === 'completed' ? code : 1;
  } finally {
    await link.close();
  }
}
