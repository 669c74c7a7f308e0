import { z } from 'zod';
import { MetricSchema } from '../api/types.ts';
import { ComparisonSchema, compareContenders, StandingMarkSchema } from './comparisons.ts';
import { clustersOfCases, DatasetClusteringSchema } from './cluster-se.ts';
import { caseSpreads, ConsistencySchema, consistencyOf } from './consistency.ts';
import { EstimateSchema } from './estimate.ts';
import { FailureSummarySchema, summarizeFailures, type FailureSummary } from './failures.ts';
import { ContenderSchema, ExperimentSchema } from './matrix.ts';
import { RefusalSchema, RunSettingsSchema } from './plan.ts';
import { RescoreOfSchema } from './rescore.ts';
import { CaseResultSchema, isEmpty, NONE, type CaseResult } from './results.ts';
import { CacheSummarySchema, summarizeCache } from './cache-summary.ts';
import { JudgeAgreementSchema } from './judge-agreement.ts';
import { RunChangeSchema, TrendSchema, type RunChange, type Trend } from './run-change.ts';
import type { PlannedCases, RunInput } from './run-input.ts';
import { RunScheduleSchema } from './schedule-spec.ts';
import { linkOf, TrackerProblemSchema, type Tracked } from './tracking.ts';

/** The snapshot's format version; bump it when a field changes meaning. */
export const SNAPSHOT_VERSION = 1;

/** A case as the snapshot keeps it, so reports show inputs and expected answers without the suite on disk. */
export const SnapshotCaseSchema = z.object({
  key: z.string(),
  id: z.string(),
  dataset: z.string(),
  variant: z.string(),
  input: z.string(),
  expected: z.json(),
  metadata: z.record(z.string(), z.json()),
  /** The content hash the run planned the case with, so a later run can tell an edited case. */
  hash: z.string().optional(),
  /** With `--repeat`: the contenders whose repeats disagreed on this case (right in some, wrong in others). */
  flaky: z.array(z.string()).optional(),
  /** With `--repeat`: per contender, the standard deviation of this case's repeats, where it is not 0. */
  spread: z.record(z.string(), z.number()).optional(),
});

/** What a run records beside its input when it starts (as memo), so any shell can rebuild its snapshot later. */
export const RunHeaderSchema = z.object({
  createdAt: z.string(),
  suite: z.object({ name: z.string(), description: z.string().optional(), project: z.string() }),
  /** The command line as commander parsed it. */
  options: z.record(z.string(), z.json()),
  settings: RunSettingsSchema,
  metrics: z.array(MetricSchema),
  refused: z.array(RefusalSchema),
  weights: z.record(z.string(), z.number()).optional(),
  /** What the run was estimated to send, receive and cost before it started; the closing line compares. */
  estimate: EstimateSchema.optional(),
  /** A scheduled run's schedule, the previous run it compares with and its bar. */
  schedule: RunScheduleSchema.optional(),
});
/** What a run records beside its input when it starts. */
export type RunHeader = z.infer<typeof RunHeaderSchema>;

/** The saved JSON of a run: its header, contenders, experiments, cases and every case result. */
export const SnapshotSchema = RunHeaderSchema.extend({
  version: z.literal(SNAPSHOT_VERSION),
  runId: z.string(),
  /** The run's state when the snapshot was taken (the run-state vocabulary), or partial while it goes on. */
  status: z.enum(['completed', 'aborted', 'cancelled', 'regressed', 'failed', 'partial']),
  finishedAt: z.string(),
  contenders: z.array(ContenderSchema),
  experiments: z.array(ExperimentSchema),
  /** A tracker's page (or log file) per experiment id, where a tracker recorded it. */
  links: z.record(z.string(), z.string()).optional(),
  /** The remote tracker the run sent to, when one was chosen. */
  tracker: z.string().optional(),
  /** Experiments the remote tracker failed to record: `llm-evals track RUN` sends them again. */
  trackerProblems: z.array(TrackerProblemSchema).optional(),
  cases: z.array(SnapshotCaseSchema),
  results: z.array(CaseResultSchema),
  /** Set on a rescore: the run whose saved replies were graded again, with no model call. */
  rescoreOf: RescoreOfSchema.optional(),
  /** Why cases failed, per contender (absent from snapshots saved before it existed: see `failuresOf`). */
  failures: FailureSummarySchema.optional(),
  /** A scheduled run: the change since the schedule's previous run, and why it regressed if it did. */
  change: RunChangeSchema.optional(),
  regression: z.array(z.string()).optional(),
  /** A scheduled run: its schedule's recent runs, for the trend picture. */
  trend: TrendSchema.optional(),
  /** Paired comparisons on the cases contenders share (absent from older snapshots: see `comparisonsOf`). */
  comparisons: z.array(ComparisonSchema).optional(),
  /** Per table (dataset, or null for all): the best and who is tied with it. */
  standings: z.array(StandingMarkSchema).optional(),
  /** Per dataset: the clustering its tests and intervals used (`cases independent` when none). */
  clustering: z.array(DatasetClusteringSchema).optional(),
  /** With `--repeat`: each contender's pass^k and flaky cases. */
  consistency: z.array(ConsistencySchema).optional(),
  /** Per contender: results the reply cache answered, cases `--cache-only` skipped, cost paid vs the replies' cost. */
  cache: CacheSummarySchema.optional(),
  /** Where the suite holds people's labels on this run's replies: each judge's agreement with them, and the panel's. */
  judgeAgreement: z.array(JudgeAgreementSchema).optional(),
});

/** The saved JSON of a run: what every display (TUI, HTML, JSON) is rendered from. */
export type Snapshot = z.infer<typeof SnapshotSchema>;
/** A case as the snapshot keeps it. */
export type SnapshotCase = z.infer<typeof SnapshotCaseSchema>;

/** A case as read from disk: what the snapshot keeps of it (its hash is the one on disk now). */
export type CaseOnDisk = Omit<SnapshotCase, 'flaky' | 'spread'>;

/** What a snapshot is built from: the run's header and input, what Temporal says of it, and the cases on disk. */
export interface SnapshotParts {
  runId: string;
  header: RunHeader;
  input: RunInput;
  status: Snapshot['status'];
  results: CaseResult[];
  /**
   * The suite's cases on disk now; those the run planned are kept, in its order. Read once, after the figures that
   * need only the results: a reader that yields them one at a time (`eachCase`) never holds the suite as loaded.
   */
  cases: Iterable<CaseOnDisk>;
  finishedAt: string;
  /** A scheduled run's change since the previous run, why it regressed, and its schedule's trend. */
  change?: RunChange;
  regression?: string[];
  trend?: Trend;
  /** How each experiment was tracked, as the run's result says (a run closed otherwise has none). */
  tracked?: Readonly<Record<string, Tracked>>;
}

/** The snapshot's tracker fields: each experiment's link, the remote tracker, and what it failed to record. */
function trackingOf(input: RunInput, tracked: Readonly<Record<string, Tracked>> = {}) {
  const links: Record<string, string> = {};
  const problems: z.infer<typeof TrackerProblemSchema>[] = [];
  const tracker = input.tracking?.tracker;
  for (const [experiment, t] of Object.entries(tracked)) {
    const link = linkOf(t);
    if (link) links[experiment] = link;
    if (t.problem) problems.push({ tracker: tracker ?? 'local', experiment, message: t.problem });
  }
  return {
    ...(Object.keys(links).length ? { links } : {}),
    ...(tracker ? { tracker } : {}),
    ...(problems.length ? { trackerProblems: problems } : {}),
  };
}

/**
 * A run's cases when its plan is not on this machine (it lives where the run started): those with a result, in the
 * order they finished, with the hash of the case on disk now.
 */
function casesFromResults(
  input: RunInput,
  results: readonly CaseResult[],
  byKey: ReadonlyMap<string, { hash?: string | undefined }>,
): PlannedCases {
  const datasetOf = new Map(input.experiments.map((e) => [e.id, e.dataset]));
  const seen = new Set<string>();
  const lists: PlannedCases = {};
  for (const r of results) {
    const dataset = datasetOf.get(r.experimentId);
    if (dataset === undefined || seen.has(r.caseKey)) continue;
    seen.add(r.caseKey);
    (lists[dataset] ??= []).push([r.caseKey, byKey.get(r.caseKey)?.hash ?? '']);
  }
  return lists;
}

/**
 * A run input as one experiment sees it: that experiment alone, and the cases of its dataset alone when the input lists
 * them. What reads one experiment (the track activity) builds its snapshot from this, not from every experiment's
 * case lists: four experiments of a 100,000-case suite closing at once built four snapshots of the whole suite.
 * The input as it is when it has no such experiment.
 */
export function oneExperiment(input: RunInput, experimentId: string): RunInput {
  const experiment = input.experiments.find((e) => e.id === experimentId);
  if (!experiment) return input;
  const list = input.datasets?.[experiment.dataset];
  const { datasets, ...rest } = input;
  return {
    ...rest,
    experiments: [experiment],
    ...(datasets ? { datasets: list ? { [experiment.dataset]: list } : {} } : {}),
  };
}

/**
 * Assembles a run's snapshot from its parts: the one place a Snapshot is made. `statistics: false` leaves out the
 * paired comparisons, the ties and the consistency over repeats (a bootstrap over every case), for a caller that
 * reads none of them (a digest, a tracker's summary); the renderers compute them from the results when absent.
 */
export function buildSnapshot(parts: SnapshotParts, { statistics = true } = {}): Snapshot {
  const { input, header } = parts;
  let onDisk = parts.cases;
  let lists = input.datasets;
  if (!lists) {
    // Without the plan's lists, they are the cases with a result, with the hash on disk now: the cases are read first.
    const all = Array.from(parts.cases);
    lists = casesFromResults(input, parts.results, new Map(all.map((c) => [c.key, c])));
    onDisk = all;
  }
  const experiments = input.experiments.map((e) => ({
    id: e.id,
    contender: input.contenders[e.contender]!.key,
    dataset: e.dataset,
    caseKeys: (lists[e.dataset] ?? []).map(([key]) => key),
  }));
  // The planned cases in the plan's order, and where each key is in it.
  const order = Object.values(lists).flat();
  const at = new Map<string, number>();
  order.forEach(([key], i) => at.set(key, i));
  // Each result's case key becomes the plan's string for it (equal, so nothing else changes): 200,000 results held
  // 200,000 copies of 100,000 keys.
  for (const r of parts.results) {
    const i = at.get(r.caseKey);
    if (i !== undefined) r.caseKey = order[i]![0];
  }
  // A case `--cache-only` skipped was never run: counted in `cache`, absent from the results like a case not reached.
  const results = parts.results.some((r) => r.skipped)
    ? parts.results.filter((r) => !r.skipped)
    : parts.results;
  const cache = summarizeCache(experiments, parts.results);
  const source = {
    ...header,
    runId: parts.runId,
    contenders: input.contenders,
    experiments,
    results,
  };
  const consistency = statistics ? consistencyOf(source) : [];
  const spreads = consistency.length ? caseSpreads(source) : new Map<string, Record<string, number>>();
  const flakyOf = new Map<string, string[]>();
  for (const c of consistency)
    for (const key of c.flaky) flakyOf.set(key, [...(flakyOf.get(key) ?? []), c.contender]);
  const failures = summarizeFailures(input.contenders, experiments, results);
  // The cases are read now (with the plan's lists), once the figures above are made: each in the plan's place.
  const placed = new Array<SnapshotCase | undefined>(order.length);
  for (const c of onDisk) {
    const i = at.get(c.key);
    if (i === undefined) continue;
    const kase = plannedCase(c, order[i]!);
    const flaky = flakyOf.get(kase.key);
    const spread = spreads.get(kase.key);
    if (flaky) kase.flaky = flaky;
    if (spread) kase.spread = spread;
    placed[i] = kase;
  }
  const cases = placed.filter((c) => c !== undefined);
  // The comparisons come after the cases, whose clusters (variants, `cluster` keys) make their tests the clustered ones.
  const { clusters, clustering } = clustersOfCases(cases);
  const compared = statistics
    ? compareContenders({ ...source, clusters }, { pairs: header.options.pairs === 'all' ? 'all' : 'best' })
    : {};
  return {
    version: SNAPSHOT_VERSION,
    runId: parts.runId,
    ...header,
    status: parts.status,
    finishedAt: parts.finishedAt,
    contenders: input.contenders,
    experiments,
    ...trackingOf(input, parts.tracked),
    cases,
    results,
    failures,
    ...(parts.change ? { change: parts.change } : {}),
    ...(parts.regression?.length ? { regression: parts.regression } : {}),
    ...(parts.trend ? { trend: parts.trend } : {}),
    ...compared,
    ...(cases.length ? { clustering } : {}),
    ...(consistency.length ? { consistency } : {}),
    ...(cache ? { cache } : {}),
  };
}

/**
 * The snapshot's copy of a case read: its fields alone, in the order the file writes them, with the plan's key and
 * hash (the strings the plan holds, not those read). Most cases have no metadata: they share one frozen empty record
 * (a snapshot is read, never changed).
 */
function plannedCase(c: CaseOnDisk, [key, hash]: readonly [string, string]): SnapshotCase {
  const { id, dataset, variant, input, expected } = c;
  const metadata = isEmpty(c.metadata) ? NONE : c.metadata;
  return { key, id, dataset, variant, input, expected, metadata, hash };
}

/** A snapshot's failures: as saved, or grouped now for a snapshot saved before they were. */
export function failuresOf(snapshot: Snapshot): FailureSummary {
  return snapshot.failures ?? summarizeFailures(snapshot.contenders, snapshot.experiments, snapshot.results);
}
