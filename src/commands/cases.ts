import pc from 'picocolors';
import { ConfigError } from '../errors.ts';
import { renderCases } from '../report/cases-table.ts';
import { loadCases, selectCases, shortPath, type LoadedCase } from '../suite/cases.ts';
import { readLineup } from '../suite/lineup.ts';
import type { LoadedSuite } from '../suite/load.ts';
import type { Io } from './io.ts';
import { openSuite } from './open-suite.ts';
import type { RunFlags } from './options.ts';

/** Loads the suite's cases for a run: the first broken case is a ConfigError; `-d`/`-c` select. */
export function casesForRun(
  suite: LoadedSuite,
  flags: Pick<RunFlags, 'dataset' | 'case'>,
  io: Io,
): LoadedCase[] {
  const { cases, problems } = loadCases(suite.root, suite.casesGlob);
  const first = problems[0];
  if (first) throw new ConfigError(shortPath(io.cwd, first.file), first.key, first.problem);
  const selected = selectCases(cases, flags.dataset ?? [], flags.case ?? []);
  if (selected.length === 0) {
    const what = [
      flags.dataset?.length ? `-d ${flags.dataset.join(',')}` : '',
      flags.case?.length ? `-c ${flags.case.join(',')}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    throw new ConfigError(
      undefined,
      what || suite.casesGlob,
      `selects no case (the suite has ${cases.length})`,
    );
  }
  return selected;
}

/** `cases` (C1): a row per case and the refused lineup entries; calls nothing. */
export async function casesCommand(flags: RunFlags, io: Io): Promise<number> {
  const suite = await openSuite(flags, io);
  const cases = casesForRun(suite, flags, io);
  const rows = cases.map((c) => ({ ...c, summary: suite.scorer.summary(c) }));
  io.stdout.write(renderCases(rows, { width: io.columns }) + '\n');
  const datasets = new Set(cases.map((c) => c.dataset)).size;
  io.stdout.write(`${cases.length} cases in ${datasets} datasets\n`);
  const { refused } = readLineup({ config: suite.config, registry: suite.registry });
  for (const r of refused) io.stdout.write(pc.yellow(r.message) + '\n');
  return 0;
}
