import { loadCases } from '../suite/cases.ts';
import { readLineup } from '../suite/lineup.ts';
import { loadSuite, type LoadedSuite } from '../suite/load.ts';
import type { Io } from '../cli/io.ts';
import type { SuiteFlags } from '../cli/options.ts';
import { recentRunIds, scheduleNames } from '../session/link.ts';
import { discoverSuite, projectOf } from '../session/open-suite.ts';
import { suitePlaceOf } from './request.ts';

const unique = (values: readonly string[]): string[] => [...new Set(values)].sort();

function values(suite: LoadedSuite, what: string): string[] {
  if (what === 'models') {
    return unique(readLineup({ config: suite.config, registry: suite.registry }).entries.map((e) => e.id));
  }
  const { cases } = loadCases(suite.root, suite.casesGlob);
  if (what === 'datasets') return unique(cases.map((c) => c.dataset));
  // `-c` takes a variant (every case in it) or one case.
  return unique(cases.flatMap((c) => [c.variant, c.id]));
}

/**
 * The hidden `__complete datasets|cases|models|runs|schedules`: the values a completion script offers, one a line,
 * from the suite found as every command finds it, but with no info box (its output lands in the user's prompt).
 * `runs` and `schedules` list the project's when Temporal is already up, and never start a server.
 */
export async function completeCommand(what: string, flags: SuiteFlags, io: Io): Promise<number> {
  if (what === 'runs' || what === 'schedules') {
    const project = projectOf(suitePlaceOf(flags), io);
    const ids = what === 'runs' ? await recentRunIds(project, io) : await scheduleNames(project, io);
    io.stdout.write(ids.map((id) => `${id}\n`).join(''));
    return 0;
  }
  const found = discoverSuite(suitePlaceOf(flags), io);
  if (!found) return 0;
  const list = values(await loadSuite(found), what);
  io.stdout.write(list.map((v) => `${v}\n`).join(''));
  return 0;
}
