import { z } from 'zod';
import type { Json } from '../api/types.ts';
import { BatchSettingsSchema } from './batch-settings.ts';
import type { Contender, Experiment, RateLimit } from './matrix.ts';

/** A case as the plan knows it: enough to find it on disk and notice if it changed. */
export interface PlanCase {
  key: string;
  id: string;
  dataset: string;
  variant: string;
  hash: string;
}

/** A lineup entry refused because its provider serves a request type the suite does not produce, with the warning shown. */
export const RefusalSchema = z.object({
  id: z.string(),
  provider: z.string(),
  needs: z.string(),
  message: z.string(),
});
/** A lineup entry refused because its provider serves a request type the suite does not produce. */
export type Refusal = z.infer<typeof RefusalSchema>;

/**
 * How a run uses the reply cache: `read` answers from it and calls (and keeps) only what it lacks, `refresh` calls
 * everything and keeps the replies, `only` calls nothing and skips what it lacks.
 */
export const CacheModeSchema = z.enum(['read', 'refresh', 'only']);
/** How a run uses the reply cache. */
export type CacheMode = z.infer<typeof CacheModeSchema>;

/** How a run runs: `parallelism` cases in flight per experiment, `concurrency` experiments at once (0 = all). */
export const RunSettingsSchema = z.object({
  parallelism: z.number(),
  concurrency: z.number(),
  /** `--repeat N`: how often each case ran per contender. */
  repeat: z.number().optional(),
  /** How the run uses the reply cache; absent (runs before it, scheduled runs) calls everything and keeps it. */
  cache: CacheModeSchema.optional(),
  /** `--batch`: the calls go out as the providers' batches, at their batch price; absent in other runs. */
  batch: BatchSettingsSchema.optional(),
});
/** How a run runs: `parallelism` cases in flight per experiment, `concurrency` experiments at once (0 = all). */
export type RunSettings = z.infer<typeof RunSettingsSchema>;

/** Everything a run needs, as plain JSON: what workflows receive; no functions, classes or secrets. */
export interface Plan {
  version: 1;
  suite: { name: string; root: string; projectDir: string; configFile: string; helperFile?: string };
  requestTypes: string[];
  contenders: Contender[];
  refused: Refusal[];
  cases: PlanCase[];
  experiments: Experiment[];
  limits: Record<string, RateLimit>;
  /** Per key: the most calls in flight at once, held by the gate (an endpoint's `max_concurrency`). */
  inFlight: Record<string, number>;
  settings: RunSettings;
  weights?: Record<string, number>;
  abortAfter?: { total: number; percent?: number };
  /** The parsed CLI options, recorded in the snapshot. */
  options: Record<string, Json>;
}
