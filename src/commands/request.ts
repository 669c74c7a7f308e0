import type { RunFlags, SuiteFlags } from '../cli/options.ts';
import type { Json } from '../api/types.ts';
import type { CacheMode } from '../core/plan.ts';
import type { ScheduledRunSpec } from '../core/schedule-spec.ts';
import {
  RunRequestSchema,
  type RunRequest,
  type SaveChoice,
  type Showing,
  type SuitePlace,
  type TrackingChoice,
} from '../core/request.ts';
import { ConfigError, quote } from '../errors.ts';

/** Each part of the request, as the flag that sets it: where a bad value is named in the user's words. */
const FLAG_OF: Record<string, string> = {
  'suite.config': '--config',
  'suite.helper': '--helper',
  'selection.datasets': '--dataset',
  'selection.cases': '--case',
  'selection.sample.size': '--sample',
  'selection.sample.seed': '--seed',
  'contenders.models': '-m',
  'contenders.effort': '--effort',
  'contenders.temperature': '--temperature',
  'contenders.maxTokens': '--max-tokens',
  'contenders.repeat': '--repeat',
  'contenders.parallelism': '-p',
  'contenders.concurrency': '-j',
  pairwise: '--pairwise',
  'tracking.tracker': '--tracker',
  'tracking.project': '--project',
  'gate.baseline': '--baseline',
  'gate.minDrop': '--min-drop',
  'gate.maxDrop': '--max-drop',
  'gate.failOn': '--fail-on',
  'gate.format': '--format',
  'gate.output': '--output',
  'save.destination': '--destination',
  'save.tempDir': '--temp-dir',
  'show.format': '--format',
  'show.output': '--output',
  'show.totals': '--totals',
  'show.display': '--display',
};

/** The suite's place as the flags give it. */
export function suitePlaceOf(flags: SuiteFlags): SuitePlace {
  return {
    ...(flags.config !== undefined ? { config: flags.config } : {}),
    ...(flags.helper !== undefined ? { helper: flags.helper } : {}),
    ...(flags.search !== undefined ? { search: flags.search } : {}),
    ...(flags.verbose ? { verbose: true } : {}),
  };
}

/**
 * The reply cache as the flags ask: `--cache-only` calls nothing; `cache` true (compare's and run's default, a
 * schedule's `--cache`) reads it; otherwise (`--no-cache`, a schedule without `--cache`) every call is made and kept.
 */
export function cacheModeOf(flags: Pick<RunFlags, 'cache' | 'cacheOnly'>): CacheMode {
  if (flags.cacheOnly) return 'only';
  return flags.cache === true ? 'read' : 'refresh';
}

/** The gate's flags together: `--format markdown|junit` and the bars need `--baseline`. */
function gateOf(flags: RunFlags): RunRequest['gate'] {
  const format = flags.format === 'markdown' || flags.format === 'junit' ? flags.format : undefined;
  // A dry run judges nothing: it plans and estimates whatever the gate's flags say.
  if (flags.dryRun) return {};
  if (format && !flags.baseline)
    throw new ConfigError(undefined, '--format', `${format} is the gate's format: add --baseline RUN|FILE`);
  if (!flags.baseline && (flags.minDrop !== undefined || flags.maxDrop !== undefined || flags.failOn))
    throw new ConfigError(
      undefined,
      '--min-drop, --max-drop, --fail-on',
      'judge a run against --baseline RUN|FILE',
    );
  return {
    ...(flags.baseline !== undefined ? { baseline: flags.baseline } : {}),
    ...(flags.minDrop !== undefined ? { minDrop: flags.minDrop } : {}),
    ...(flags.maxDrop !== undefined ? { maxDrop: flags.maxDrop } : {}),
    ...(flags.failOn !== undefined ? { failOn: flags.failOn } : {}),
    ...(format ? { format } : {}),
    ...(format && typeof flags.output === 'string' ? { output: flags.output } : {}),
  };
}

/** The keys of `from` that are set, copied: a request holds no `undefined`. */
function defined<T extends object>(from: T): Partial<T> {
  return Object.fromEntries(Object.entries(from).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Where the results go, as `--tracker`, `--local` and `--project` say. */
export function trackingChoiceOf(flags: Pick<RunFlags, 'tracker' | 'local' | 'project'>): TrackingChoice {
  return defined({ tracker: flags.tracker, local: flags.local, project: flags.project });
}

/** Where the snapshot is saved, as `--autosave`, `--destination` and `--temp-dir` say. */
export function saveChoiceOf(flags: Pick<RunFlags, 'autosave' | 'destination' | 'tempDir'>): SaveChoice {
  return defined({ autosave: flags.autosave, destination: flags.destination, tempDir: flags.tempDir });
}

/** How the report shows, as the report's flags say; `markdown` and `junit` are the gate's, not the report's. */
export function showingOf(flags: RunFlags): Showing {
  return {
    ...defined({
      format: flags.format === 'markdown' || flags.format === 'junit' ? undefined : flags.format,
      output: flags.output,
      totals: flags.totals,
      display: flags.display,
    }),
    open: flags.open !== false,
    scores: Boolean(flags.scores),
    allowFailures: Boolean(flags.allowFailures),
  };
}

/**
 * A command's flags as the run request they ask for, parsed once at the command's edge; a bad value is a ConfigError
 * that names its flag. `models` are `run -m`'s (compare takes the lineup's).
 */
export function runRequestOf(flags: RunFlags, models?: string[]): RunRequest {
  const gate = gateOf(flags);
  const request: RunRequest = {
    suite: suitePlaceOf(flags),
    selection: {
      datasets: flags.dataset ?? [],
      cases: flags.case ?? [],
      ...(flags.sample ? { sample: { size: flags.sample, seed: flags.seed ?? 0 } } : {}),
    },
    contenders: defined({
      models,
      effort: flags.effort,
      temperature: flags.temperature,
      maxTokens: flags.maxTokens,
      repeat: flags.repeat,
      parallelism: flags.parallelism,
      concurrency: flags.concurrency,
    }),
    cache: cacheModeOf(flags),
    batch: Boolean(flags.batch),
    dryRun: Boolean(flags.dryRun),
    checks: flags.verify !== false,
    ...(flags.pairwise ? { pairwise: flags.pairwise } : {}),
    tracking: trackingChoiceOf(flags),
    gate,
    save: saveChoiceOf(flags),
    // The gate's format writes the gate's text: the run's own report then shows as it would without it.
    show: showingOf(gate.format ? { ...flags, output: undefined } : flags),
    yes: Boolean(flags.yes),
    recorded: JSON.parse(JSON.stringify(flags)) as Record<string, Json>,
  };
  return checked(request);
}

/** The request as its schema reads it; a bad part is a ConfigError naming the flag that set it and its value. */
function checked(request: RunRequest): RunRequest {
  const parsed = RunRequestSchema.safeParse(request);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.filter((p) => typeof p === 'string').join('.');
  let value: unknown = request;
  for (const p of issue.path) value = (value as Record<PropertyKey, unknown>)?.[p];
  const said = issue.message.charAt(0).toLowerCase() + issue.message.slice(1);
  const got = typeof value === 'number' ? String(value) : quote(value);
  throw new ConfigError(undefined, FLAG_OF[path] ?? path, `${said}, got ${got}`);
}

/** A schedule's fire's request: the compare flags `schedule create` kept (their `-m` among them), parsed as at create. */
export function fireRequestOf(spec: ScheduledRunSpec): RunRequest {
  const flags = spec.flags as RunFlags;
  return runRequestOf(flags, flags.models);
}
