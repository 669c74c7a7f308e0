import type { Json } from '../api/types.ts';
import type { Contender, Experiment, RateLimit } from './matrix.ts';

/** A case as the plan knows it: enough to find it on disk and notice if it changed. */
export interface PlanCase {
  key: string;
  id: string;
  dataset: string;
  variant: string;
  hash: string;
}

/** An entry refused because its provider's request type is not the suite's. */
export interface PlanRefusal {
  id: string;
  provider: string;
  needs: string;
  message: string;
}

/** Everything a run needs, as plain JSON: what workflows receive; no functions, classes or secrets. */
export interface Plan {
  version: 1;
  suite: { name: string; root: string; projectDir: string; configFile: string; helperFile?: string };
  requestTypes: string[];
  contenders: Contender[];
  refused: PlanRefusal[];
  cases: PlanCase[];
  experiments: Experiment[];
  limits: Record<string, RateLimit>;
  /** `parallelism`: cases in flight per experiment; `concurrency`: experiments at once (0 = all). */
  settings: { parallelism: number; concurrency: number };
  weights?: Record<string, number>;
  abortAfter?: { total: number; percent?: number };
  /** The parsed CLI options, recorded in the snapshot. */
  options: Record<string, Json>;
}
