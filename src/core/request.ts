import { z } from 'zod';
import { CacheModeSchema } from './plan.ts';

/**
 * Where a command finds its suite: a lineup file, a helper file, or a search from the working folder; `verbose` says
 * how it was found. Every suite command has one, whoever asks (a command line, the view, a schedule's fire).
 */
export const SuitePlaceSchema = z.strictObject({
  config: z.string().optional(),
  helper: z.string().optional(),
  /** False: no search downward from the folder for a lineup. */
  search: z.boolean().optional(),
  verbose: z.boolean().optional(),
});
export type SuitePlace = z.infer<typeof SuitePlaceSchema>;

/** A deterministic sample of each dataset's cases, stratified by variant. */
export const SampleSchema = z.strictObject({
  size: z.number().int().positive(),
  seed: z.number().int().nonnegative(),
});
export type Sample = z.infer<typeof SampleSchema>;

/** Which of the suite's cases a run takes: datasets and case ids (none: all), then perhaps a sample of them. */
export const SelectionSchema = z.strictObject({
  datasets: z.array(z.string()),
  cases: z.array(z.string()),
  sample: SampleSchema.optional(),
});
export type Selection = z.infer<typeof SelectionSchema>;

/** Who competes and how hard: the models chosen (none: the lineup's), the settings that beat the lineup's. */
export const ContendersSchema = z.strictObject({
  models: z.array(z.string()).optional(),
  effort: z.array(z.string()).optional(),
  temperature: z.array(z.number()).optional(),
  maxTokens: z.number().int().positive().optional(),
  /** Each case this many times per contender. */
  repeat: z.number().int().positive().optional(),
  /** Calls one experiment keeps in flight. */
  parallelism: z.number().int().positive().optional(),
  /** Experiments at once (0: all); none: as many as the machine has cores. */
  concurrency: z.number().int().nonnegative().optional(),
});
export type Contenders = z.infer<typeof ContendersSchema>;

/** Where a run's results go: a remote tracker by name, the local log only, and the tracker's project. */
export const TrackingChoiceSchema = z.strictObject({
  tracker: z.string().optional(),
  local: z.boolean().optional(),
  project: z.string().optional(),
});
export type TrackingChoice = z.infer<typeof TrackingChoiceSchema>;

/** A run judged against a baseline (a run id or a snapshot file), and what the judgement writes and decides. */
export const GateRequestSchema = z.strictObject({
  baseline: z.string().optional(),
  /** Points: the smallest significant drop that counts as a regression. */
  minDrop: z.number().min(0).max(100).optional(),
  /** Points: any drop this large fails, significant or not. */
  maxDrop: z.number().min(0).max(100).optional(),
  /** None: a regression fails in CI only. */
  failOn: z.enum(['regression', 'never']).optional(),
  /** The gate's text for CI, written to `output` (else stdout) in place of the run's own report. */
  format: z.enum(['markdown', 'junit']).optional(),
  output: z.string().optional(),
});
export type GateRequest = z.infer<typeof GateRequestSchema>;

/** Where a run's snapshot is saved: the results folder, else the temporary one; none: as the lineup says. */
export const SaveChoiceSchema = z.strictObject({
  autosave: z.boolean().optional(),
  destination: z.string().optional(),
  tempDir: z.string().optional(),
});
export type SaveChoice = z.infer<typeof SaveChoiceSchema>;

/** How a finished run is shown; none of it changes what runs. */
export const ShowingSchema = z.strictObject({
  format: z.enum(['tui', 'html', 'json']).optional(),
  /** A file (or true: the default file) the report is written to. */
  output: z.union([z.string(), z.boolean()]).optional(),
  totals: z.enum(['overall', 'variant', 'both']).optional(),
  display: z.enum(['none', 'tui', 'browser']).optional(),
  /** False: no browser opens. */
  open: z.boolean(),
  /** Every experiment by score with its tracker link. */
  scores: z.boolean(),
  /** Exit 0 even when a contender scored no case. */
  allowFailures: z.boolean(),
});
export type Showing = z.infer<typeof ShowingSchema>;

/**
 * What to run, where, and with which options: one request whoever asks (a command line parses its flags into it once,
 * the view or a schedule builds it), so that nothing below the commands reads a flag.
 */
export const RunRequestSchema = z.strictObject({
  suite: SuitePlaceSchema,
  selection: SelectionSchema,
  contenders: ContendersSchema,
  cache: CacheModeSchema,
  /** The calls go out as each endpoint's batch, at the batch price. */
  batch: z.boolean(),
  /** Plan, estimate and check; call nothing. */
  dryRun: z.boolean(),
  /** False: only the keys are checked before the first call, not the whole suite. */
  checks: z.boolean(),
  /** Two contenders whose replies the judge compares, B against A. */
  pairwise: z.array(z.string()).optional(),
  tracking: TrackingChoiceSchema,
  gate: GateRequestSchema,
  save: SaveChoiceSchema,
  show: ShowingSchema,
  /** Answers the pause prompt with yes. */
  yes: z.boolean(),
  /** What the run's asker gave, as given: recorded in the snapshot. */
  recorded: z.record(z.string(), z.json()),
});
export type RunRequest = z.infer<typeof RunRequestSchema>;
