import { ApplicationFailure } from '@temporalio/activity';
import { datasetDigest, plansDir, PlanStore } from '../src/cache/plans.ts';
import type { ExperimentCases, PlannedCases } from '../src/core/run-input.ts';
import type { CaseDeps } from './case-deps.ts';

/** Finds a run's case by its index in an experiment's dataset: its key and the hash the plan saw. */
export interface PlanCases {
  caseAt(cases: ExperimentCases, index: number): [key: string, hash: string];
}

/** Plans kept in memory: a worker serves a run or two at a time, and a plan of 100,000 cases is ~10 MB. */
const KEPT = 4;

/**
 * Reads runs' cases from the plan store, where the command that started a run kept them. A worker on another machine,
 * without the plan file, lists the dataset from the suite it loaded, and takes it only if its digest is the plan's:
 * the same cases with the same contents, in the same order.
 */
export function createPlanCases(
  deps: Pick<CaseDeps, 'cases' | 'refreshCases'>,
  store = new PlanStore(plansDir()),
): PlanCases {
  const kept = new Map<string, PlannedCases[string]>();
  // The plan file last read: a run's experiments share it, one per dataset, so it is parsed once, not per dataset.
  let file: { plan: string; cases: PlannedCases | undefined } | undefined;
  const fromFile = (plan: string) => {
    if (file?.plan !== plan) file = { plan, cases: sharingStrings(store.get(plan), deps.cases) };
    return file.cases;
  };
  const listOf = ({ plan, dataset, digest }: ExperimentCases) => {
    const id = `${plan}/${dataset}`;
    const known = kept.get(id);
    if (known) return known;
    const list = fromFile(plan)?.[dataset] ?? fromSuite({ plan, dataset, digest });
    if (kept.size >= KEPT) kept.delete(kept.keys().next().value!);
    kept.set(id, list);
    return list;
  };
  const fromSuite = ({ plan, dataset, digest }: ExperimentCases) => {
    const list = () =>
      [...deps.cases.values()]
        .filter((c) => c.dataset === dataset)
        .map((c): [string, string] => [c.key, c.hash]);
    let mine = list();
    if (datasetDigest(mine) !== digest && deps.refreshCases) {
      deps.refreshCases();
      mine = list();
    }
    if (datasetDigest(mine) === digest) return mine;
    // Another worker, holding the plan or the suite as it was planned, can serve it.
    throw ApplicationFailure.retryable(
      `this worker cannot find the run's cases: its plan (${store.fileOf(plan)}) is not on this machine, and ` +
        `dataset ${dataset} on disk is not the one planned (${mine.length} cases here). Run the worker where the ` +
        `run started, or on the suite as it was then.`,
      'PlanNotFound',
    );
  };
  return {
    caseAt(cases, index) {
      const found = listOf(cases)[index];
      if (!found) throw new Error(`no case ${index} in dataset ${cases.dataset} of plan ${cases.plan}`);
      return found;
    },
  };
}

/**
 * A plan whose keys and hashes are the strings of the cases this worker loaded, where a case is the same: read from
 * its file, the plan held a second copy of each (12 MB of a 100,000-case worker's 100 MB heap).
 */
function sharingStrings(plan: PlannedCases | undefined, loaded: CaseDeps['cases']): PlannedCases | undefined {
  for (const list of Object.values(plan ?? {}))
    for (const pair of list) {
      const known = loaded.get(pair[0]);
      if (known?.hash !== pair[1]) continue;
      pair[0] = known.key;
      pair[1] = known.hash;
    }
  return plan;
}
