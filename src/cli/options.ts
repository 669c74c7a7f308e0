/** The port `view` serves on unless told (`view --help` shows it): one that is busy is said, exit 2. */
export const VIEW_PORT = 7357;

/** The flags shared by the suite commands, as commander parses them. */
export interface SuiteFlags {
  config?: string;
  helper?: string;
  search?: boolean;
  verbose?: boolean;
}

/** The flags of `run` and `compare`. */
export interface RunFlags extends SuiteFlags {
  models?: string[];
  dataset?: string[];
  case?: string[];
  effort?: string[];
  temperature?: number[];
  maxTokens?: number;
  parallelism?: number;
  concurrency?: number;
  /** `--repeat N`: each case N times per contender, for means with confidence intervals. */
  repeat?: number;
  /** `--pairs all`: paired comparisons of every pair of contenders, not only each against the best. */
  pairs?: 'best' | 'all';
  project?: string;
  tracker?: string;
  local?: boolean;
  open?: boolean;
  dryRun?: boolean;
  output?: string | boolean;
  /** The report's format; `markdown` and `junit` are the --baseline gate's, for CI. */
  format?: 'tui' | 'html' | 'json' | 'markdown' | 'junit';
  totals?: 'overall' | 'variant' | 'both';
  display?: 'none' | 'tui' | 'browser';
  autosave?: boolean;
  destination?: string;
  tempDir?: string;
  yes?: boolean;
  /** `--allow-failures`: exit 0 even when a contender produced no scored case. */
  allowFailures?: boolean;
  /** `--no-verify`: false skips verify's checks before the first call. */
  verify?: boolean;
  /** `--scores`: list every experiment by score with its tracker link. */
  scores?: boolean;
  /** `--no-cache` (false): call everything and refresh the reply cache; a schedule's `--cache` (true) reads it. */
  cache?: boolean;
  /** `--cache-only`: call nothing; cases the reply cache has no reply for are skipped. */
  cacheOnly?: boolean;
  /** `--batch`: the calls go out as each endpoint's Batch API batch, waited on durably, at the batch price. */
  batch?: boolean;
  /** `resume --retry-errors`: a new run calls the cases that ended in errors again, the rest from the reply cache. */
  retryErrors?: boolean;
  /** `--baseline REF`: a run id or a snapshot file the run is judged against (src/gate). */
  baseline?: string;
  /** `--pairwise A B`: the judge compares B's reply to each case with A's, in both orders. */
  pairwise?: string[];
  /** `--min-drop P`: the smallest significant drop, in points, that counts as a regression. */
  minDrop?: number;
  /** `--max-drop P`: any drop of P points or more fails the gate, significant or not. */
  maxDrop?: number;
  /** `--sample N`: a deterministic sample of N cases per dataset, stratified by variant, seeded by `--seed`. */
  sample?: number;
  seed?: number;
  /** `--fail-on`: whether a regression against the baseline fails the command (the default in CI). */
  failOn?: 'regression' | 'never';
}

/** The flags of `track`: which tracker to send to (else the run's own), and the tracker project. */
export type TrackFlags = SuiteFlags & Pick<RunFlags, 'tracker' | 'local' | 'project'>;

/** The flags of `start`: `worker: false` leaves serving the run to `llm-evals worker` processes. */
export interface StartFlags extends RunFlags {
  worker?: boolean;
}

/** The flags of `worker`: `until` makes it leave once that run has closed. */
export interface WorkerFlags extends SuiteFlags {
  until?: string;
  /** Pools of calls (and retries) this worker runs at once, so that several workers share a run's experiments. */
  maxActivities?: number;
}

/** The flags of `status`, `runs` and `cancel`. */
export interface StatusFlags extends SuiteFlags {
  watch?: boolean;
  json?: boolean;
}

/** The flags of `schedule`: when it fires, its bar, what each fire plans with, and those of its other actions. */
export interface ScheduleFlags
  extends
    SuiteFlags,
    Pick<
      RunFlags,
      | 'models'
      | 'dataset'
      | 'case'
      | 'effort'
      | 'temperature'
      | 'maxTokens'
      | 'parallelism'
      | 'concurrency'
      | 'tracker'
      | 'local'
      | 'project'
      | 'cache'
    > {
  every?: string;
  cron?: string;
  timezone?: string;
  overlap?: string;
  catchupWindow?: string;
  /** `--max-drop POINTS`: a contender's primary score may fall this many points from the previous run. */
  maxDrop?: number;
  /** `--min-score PERCENT`: a contender's primary score under this regresses the run. */
  minScore?: number;
  note?: string;
  from?: string;
  to?: string;
  /** `schedule show --flaky N`: the cases that flipped most over the last N judged runs. */
  flaky?: number;
  json?: boolean;
}

/** The flags of `diff`: how the change between two runs is shown. */
export interface DiffFlags extends SuiteFlags {
  format?: 'tui' | 'html' | 'json';
  output?: string;
}

/** The flags of `cache`: prune's age, and stats as JSON. */
export interface CacheFlags {
  olderThan?: string;
  json?: boolean;
}
