import type { Adapter } from '../api/adapter.ts';
import type { Scorer } from '../api/scorer.ts';
import type { Provider } from '../api/types.ts';
import type { TrackerDefinition } from '../trackers/types.ts';

/** What a helper file (`evals/eval_helper.ts`) registers: export it as default, made with `defineSuite`. */
export interface SuiteDefinition {
  /** Shown in the info box and reports; defaults to the lineup's `project`, then the project folder's name. */
  name?: string;
  /** The suite's root (datasets and the lineup live here); defaults to the helper's folder. */
  root?: string;
  description?: string;
  /** Env files (relative to the root) loaded without overriding exported variables. */
  envFiles?: string[];
  /** The cases glob, relative to the root. */
  cases?: string;
  adapter?: Adapter;
  scorer?: Scorer;
  /** After the env files load, before any model is called. */
  beforeRun?: () => void | Promise<void>;
  /** Extra providers; the last registered is asked first for an id. */
  providers?: Provider[];
  /** Custom trackers, chosen by name like the built-in ones; their `packages` are imported only when chosen. */
  trackers?: TrackerDefinition[];
}

/** Declares a suite in a helper file: `export default defineSuite({ ... })`. */
export function defineSuite(definition: SuiteDefinition): SuiteDefinition {
  return definition;
}
