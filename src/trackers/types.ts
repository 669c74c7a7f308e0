import type { Json } from '../api/types.ts';
import type { Summary } from '../core/aggregate.ts';
import type { Contender } from '../core/matrix.ts';
import type { CaseResult } from '../core/results.ts';

/** The environment a tracker reads its keys from: `process.env` in a command, a plain object in a test. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Where a tracker says what it is doing (`-v`) and what went wrong without failing the run. */
export interface TrackerLog {
  info(message: string): void;
  warn(message: string): void;
}

/** What a tracker is given for a run: the suite, the tracker project, its own lineup section, the env and a log. */
export interface TrackerContext {
  suite: string;
  /** The tracker project's name: `--project`, else the lineup's `project`, else the suite's name. */
  project: string;
  /** A project id the user gave (such as `BRAINTRUST_PROJECT_ID`): it wins over the name. */
  projectId?: string;
  /** The suite's project folder, where the local log and relative paths land. */
  projectDir: string;
  /** The tracker's own section of the lineup (`logfire: {include_replies: true}`), unchecked: each tracker parses its own. */
  config: Record<string, unknown>;
  /** The lineup file the section came from, named in its errors. */
  configFile?: string;
  env: Env;
  log: TrackerLog;
}

/** One experiment as a tracker sees it: the run, the contender, the dataset and when its cases ran. */
export interface ExperimentInfo {
  runId: string;
  experimentId: string;
  suite: string;
  project: string;
  contender: Pick<Contender, 'key' | 'id' | 'provider' | 'model' | 'effort' | 'temperature' | 'maxTokens'>;
  dataset: string;
  /** The cases planned for the experiment; a partial run records fewer. */
  caseCount: number;
  /** The first case's start and the last one's end, so a later resend carries the true times. */
  startedAt: string;
  finishedAt: string;
}

/** One case's result with its case, as a tracker records it; `idempotencyId` stays the same on every resend. */
export type CaseRecord = CaseResult & {
  /** `<runId>/<experimentId>/<caseKey>`: a tracker that stores by id keeps one row per case however often it is sent. */
  idempotencyId: string;
  runId: string;
  caseId: string;
  dataset: string;
  variant: string;
  input: string;
  expected: Json;
  metadata: Record<string, Json>;
};

/** An experiment ready to send: what `start` and `finish` get, its records in case order, and its summary. */
export interface TrackedExperiment {
  experiment: ExperimentInfo;
  records: CaseRecord[];
  summary: Summary;
}

/** A tracker made for one run: `record` is called in case order, one at a time, between `start` and `finish`. */
export interface Tracker {
  readonly name: string;
  /** `false` turns every callback into a no-op. */
  enabled(): boolean;
  start(experiment: ExperimentInfo): Promise<void>;
  record(record: CaseRecord): Promise<void>;
  /** Returns the experiment's page, where the tracker has one. */
  finish(experiment: ExperimentInfo, summary: Summary): Promise<{ url?: string }>;
}

/** A tracker as registered (built in or from the helper): what selection and checks need, and how to make one. */
export interface TrackerDefinition {
  /** The name `--tracker`, `tracker:` and its lineup section use. */
  name: string;
  /** The variable whose presence selects it when nothing else does. */
  envKey?: string;
  /** npm packages it imports lazily, named in the error when one is missing. */
  packages: readonly string[];
  /** The variable it lacks, for a tracker that accepts more than `envKey`; without it, `envKey` must be set. */
  missingKey?(env: Env): string | undefined;
  /** Makes the tracker for a run; it may throw a `ConfigError` for a bad lineup section, and imports nothing yet. */
  create(context: TrackerContext): Tracker;
}

export type { TrackerProblem } from '../core/tracking.ts';
