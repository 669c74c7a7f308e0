import { z } from 'zod';
import type { Metric } from '../api/types.ts';
import type { Contender, Experiment } from '../core/matrix.ts';
import type { PlanRefusal } from '../core/plan.ts';
import type { CaseResult } from '../core/results.ts';

/** The snapshot's format version; bump it when a field changes meaning. */
export const SNAPSHOT_VERSION = 1;

const Json = z.json();
const count = z.number().nullable();

/** Tokens and dollars; `null` when the provider did not say. */
export const UsageSchema = z.object({ inputTokens: count, outputTokens: count, costUsd: count });

/** A scorer's column as the snapshot records it. */
export const MetricSchema = z.object({
  name: z.string(),
  description: z.string(),
  aggregate: z.literal('mean').optional(),
  primary: z.boolean().optional(),
});

/** A contender: one model at one effort, temperature and token budget, through one provider. */
export const ContenderSchema = z.object({
  key: z.string(),
  id: z.string(),
  provider: z.string(),
  model: z.string(),
  effort: z.string(),
  temperature: z.number().nullable(),
  maxTokens: z.number().nullable(),
  limits: z.array(z.string()),
});

/** One contender over one dataset's selected cases. */
export const ExperimentSchema = z.object({
  id: z.string(),
  contender: z.string(),
  dataset: z.string(),
  caseKeys: z.array(z.string()),
});

/** A lineup entry the suite could not ask, with the warning shown. */
export const RefusalSchema = z.object({
  id: z.string(),
  provider: z.string(),
  needs: z.string(),
  message: z.string(),
});

/** One case's result: its status, score, metrics, diagnostics, reply, usage and timings. */
export const CaseResultSchema = z.object({
  experimentId: z.string(),
  caseKey: z.string(),
  status: z.enum(['scored', 'reply_error', 'error']),
  score: z.number().nullable(),
  metrics: z.record(z.string(), z.number().nullable()),
  outcomes: z.record(z.string(), z.number()),
  diagnostics: z.record(z.string(), Json),
  output: Json.optional(),
  reply: z.string().optional(),
  replyTruncated: z.boolean().optional(),
  error: z.string().optional(),
  usage: UsageSchema,
  latency: z.number().nullable(),
  duration: z.number(),
  waited: z.number().optional(),
  startedAt: z.string(),
  finishedAt: z.string(),
  attempts: z.number(),
});

/** A case as the snapshot keeps it, so reports show inputs and expected answers without the suite on disk. */
export const SnapshotCaseSchema = z.object({
  key: z.string(),
  id: z.string(),
  dataset: z.string(),
  variant: z.string(),
  input: z.string(),
  expected: Json,
  metadata: z.record(z.string(), Json),
});

/** The saved JSON of a run (R3): parsed options, effective settings, contenders, cases and every case result. */
export const SnapshotSchema = z.object({
  version: z.literal(SNAPSHOT_VERSION),
  runId: z.string(),
  suite: z.object({ name: z.string(), description: z.string().optional(), project: z.string() }),
  status: z.enum(['completed', 'aborted', 'partial']),
  createdAt: z.string(),
  finishedAt: z.string(),
  /** The command line as commander parsed it. */
  options: z.record(z.string(), Json),
  /** `parallelism`: cases in flight per experiment; `concurrency`: experiments at once (0 = all). */
  settings: z.object({ parallelism: z.number(), concurrency: z.number() }),
  contenders: z.array(ContenderSchema),
  refused: z.array(RefusalSchema),
  experiments: z.array(ExperimentSchema),
  metrics: z.array(MetricSchema),
  weights: z.record(z.string(), z.number()).optional(),
  /** A tracker's page (or log file) per experiment id, where a tracker recorded it. */
  links: z.record(z.string(), z.string()).optional(),
  cases: z.array(SnapshotCaseSchema),
  results: z.array(CaseResultSchema),
});

/** The saved JSON of a run: what every display (TUI, HTML, JSON) is rendered from. */
export type Snapshot = z.infer<typeof SnapshotSchema>;
/** A case as the snapshot keeps it. */
export type SnapshotCase = z.infer<typeof SnapshotCaseSchema>;

/** Holds when A and B name the same keys: a field added to a type the snapshot records must be added here too. */
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const inSync: [
  SameKeys<CaseResult, z.infer<typeof CaseResultSchema>>,
  SameKeys<Contender, z.infer<typeof ContenderSchema>>,
  SameKeys<Experiment, z.infer<typeof ExperimentSchema>>,
  SameKeys<Metric, z.infer<typeof MetricSchema>>,
  SameKeys<PlanRefusal, z.infer<typeof RefusalSchema>>,
] = [true, true, true, true, true];
void inSync;
