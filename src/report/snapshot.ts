import type { Json, Metric } from '../api/types.ts';
import type { Contender, Experiment } from '../core/matrix.ts';
import type { PlanRefusal } from '../core/plan.ts';
import type { CaseResult } from '../core/results.ts';

/** The snapshot's format version; bump it when a field changes meaning. */
export const SNAPSHOT_VERSION = 1;

/** A case as the snapshot keeps it, so reports show inputs and expected answers without the suite on disk. */
export interface SnapshotCase {
  key: string;
  id: string;
  dataset: string;
  variant: string;
  input: string;
  expected: Json;
  metadata: Record<string, Json>;
}

/** The saved JSON of a run (R3): options, effective settings, contenders, cases and every case result. */
export interface Snapshot {
  version: typeof SNAPSHOT_VERSION;
  runId: string;
  suite: { name: string; description?: string; project: string };
  status: 'completed' | 'aborted' | 'partial';
  createdAt: string;
  finishedAt: string;
  options: Record<string, Json>;
  settings: { parallelism: number; concurrency: number };
  contenders: Contender[];
  refused: PlanRefusal[];
  experiments: Experiment[];
  metrics: Metric[];
  weights?: Record<string, number>;
  cases: SnapshotCase[];
  results: CaseResult[];
}
