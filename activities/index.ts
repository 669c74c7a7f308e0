import { createRunCase, type ActivityDeps } from './run-case.ts';

export type { ActivityDeps, RunCaseInput } from './run-case.ts';

/** The activities a worker registers, built around the suite it loaded. */
export function createActivities(deps: ActivityDeps) {
  return { runCase: createRunCase(deps) };
}

/** The activities' types, for workflows' `proxyActivities`. */
export type Activities = ReturnType<typeof createActivities>;
