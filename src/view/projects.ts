import { join, resolve } from 'node:path';
import { loadCases, type LoadedCase } from '../suite/cases.ts';
import { discover, type DiscoverOptions } from '../suite/discover.ts';
import { loadSuite, type LoadedSuite } from '../suite/load.ts';

/** The cases of a project as its suite on disk has them now; none when it has no readable suite. */
export type CasesOf = (project: string) => Promise<readonly LoadedCase[]>;

/**
 * Loads the suite found as `options` say from `options.cwd` (a run's project folder: the suite of that project only),
 * or `undefined` when there is none or it does not load.
 */
export async function suiteOf(options: DiscoverOptions, project?: string): Promise<LoadedSuite | undefined> {
  try {
    return await loadFound(options, project);
  } catch {
    return undefined;
  }
}

/**
 * The suite of a run's project folder, loaded as `llm-evals` run there loads it; `undefined` when the folder holds
 * none. One that does not load throws, so that what cancels a run's batches can say why it could not.
 */
export function projectSuite(project: string): Promise<LoadedSuite | undefined> {
  return loadFound({ cwd: project }, project);
}

/** The suite `discover` finds (of `project` only, when given), loaded; a load that fails throws. */
async function loadFound(options: DiscoverOptions, project?: string): Promise<LoadedSuite | undefined> {
  const found = discover(options);
  if (!found || (project !== undefined && found.projectDir !== project)) return undefined;
  return loadSuite(found);
}

/** Where a suite saves its snapshots: the lineup's `results.destination`, else `results/` beside the helper. */
export function savedDirOf(suite: LoadedSuite): string {
  const destination = suite.config.values.results?.destination;
  return resolve(suite.projectDir, destination ?? join(suite.root, 'results'));
}

/**
 * Each project's cases, read once per project and kept: a run's page shows a case's input and expected answer from
 * the suite it was started from. `known` is the suite already loaded for the current project.
 */
export function casesByProject(known?: LoadedSuite): CasesOf {
  const cache = new Map<string, Promise<readonly LoadedCase[]>>();
  return (project) => {
    let cases = cache.get(project);
    if (!cases) {
      cases = (async () => {
        const suite =
          known && known.projectDir === project ? known : await suiteOf({ cwd: project }, project);
        return suite ? loadCases(suite.root, suite.casesGlob).cases : [];
      })();
      cache.set(project, cases);
    }
    return cases;
  };
}
