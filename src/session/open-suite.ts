import pc from 'picocolors';
import { ConfigError } from '../errors.ts';
import { renderBox } from '../report/table.ts';
import { discover, type Discovery } from '../suite/discover.ts';
import { loadSuite, type LoadedSuite } from '../suite/load.ts';
import { shortPath } from '../suite/cases.ts';
import type { Io } from '../cli/io.ts';
import type { SuitePlace } from '../core/request.ts';

const folderName = (found: Discovery) => found.projectDir.split('/').pop() ?? found.projectDir;

/** The info box: the suite's name (its helper's, else the lineup's `project`, else its folder's) and its file. */
function infoBox(io: Io, found: Discovery, name: string): void {
  const box = renderBox('Info', [`Evals configuration: ${name}`, `File: ${shortPath(io.cwd, found.file)}`], {
    width: io.columns,
  });
  io.stderr.write(pc.green(box) + '\n');
}

/** Where the place and the folder say the suite is (its lineup, its helper or LLM_EVALS_HELPER, else a search); none found. */
export function discoverSuite(place: SuitePlace, io: Io): Discovery | undefined {
  return discover({
    cwd: io.cwd,
    config: place.config,
    helper: place.helper ?? io.env.LLM_EVALS_HELPER,
    search: place.search,
  });
}

/**
 * Finds the suite without loading it and prints the info box with its folder's name unless `box` is false; with none
 * found, the warning box and a ConfigError.
 */
export function findSuite(place: SuitePlace, io: Io, box = true): Discovery {
  const found = discoverSuite(place, io);
  if (!found) {
    const lines = [
      `No suite found from ${io.cwd}:`,
      'no evals/eval_helper.ts or evals/.llm-evals.config.yml above,',
      'no .llm-evals.config.yml up to 4 levels below.',
    ];
    io.stderr.write(pc.yellow(renderBox('Warning', lines, { width: io.columns })) + '\n');
    throw new ConfigError(
      undefined,
      undefined,
      'no suite found; pass -C FILE or --helper FILE, or run from inside a project',
    );
  }
  if (box) infoBox(io, found, folderName(found));
  return found;
}

/**
 * Finds and loads the suite, printing the info box (or the warning box) first, as a command that acts on the suite
 * does; a read of a run (`box` false) prints the box only above an error, where it says which suite failed.
 */
export async function openSuite(place: SuitePlace, io: Io, box = true): Promise<LoadedSuite> {
  const found = findSuite(place, io, false);
  let suite: LoadedSuite;
  try {
    suite = await loadSuite(found);
  } catch (error) {
    // A suite that cannot load has no name of its own yet: the box names its folder above the error.
    infoBox(io, found, folderName(found));
    throw error;
  }
  if (box) infoBox(io, found, suite.name);
  if (place.verbose) io.stderr.write(`suite ${suite.name} found ${found.how}: ${found.file}\n`);
  return suite;
}

/** The project whose Temporal a run command talks to: the discovered suite's, else the working directory. */
export function projectOf(place: SuitePlace, io: Io): string {
  return (
    discover({ cwd: io.cwd, config: place.config, helper: place.helper, search: place.search })?.projectDir ??
    io.cwd
  );
}
