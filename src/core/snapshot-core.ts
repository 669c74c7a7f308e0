import { z } from 'zod';
import { MetricSchema } from '../api/types.ts';
import { EstimateSchema } from './estimate.ts';
import { ContenderSchema, ExperimentSchema } from './matrix.ts';
import { RefusalSchema, RunSettingsSchema } from './plan.ts';
import { CaseResultSchema } from './results.ts';
import { RunScheduleSchema } from './schedule-spec.ts';
import { TrackerProblemSchema } from './tracking.ts';

// The snapshot's fields that its statistics, digests and rescores read, apart from those made of them
// (src/core/snapshot.ts), so that what makes a snapshot's comparisons need not import the snapshot that holds them.

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

/**
 * What every snapshot holds whatever else it carries: its header, contenders, experiments, cases and every case result.
 * The statistics read these; the snapshot's other fields are made from them (src/core/snapshot.ts).
 */
export const SnapshotCoreSchema = RunHeaderSchema.extend({
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
});
/** What every snapshot holds: what its statistics are made from. */
export type SnapshotCore = z.infer<typeof SnapshotCoreSchema>;
/** A case as the snapshot keeps it. */
export type SnapshotCase = z.infer<typeof SnapshotCaseSchema>;

/** Where a rescored snapshot came from: the run it re-scored, the file it was read from, and when. */
export const RescoreOfSchema = z.object({
  runId: z.string(),
  file: z.string().optional(),
  rescoredAt: z.string(),
});
/** Where a rescored snapshot came from: the run it re-scored, the file it was read from, and when. */
export type RescoreOf = z.infer<typeof RescoreOfSchema>;
