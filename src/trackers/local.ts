import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Summary } from '../core/aggregate.ts';
import { parseSection } from './section.ts';
import type { CaseRecord, ExperimentInfo, Tracker, TrackerContext, TrackerDefinition } from './types.ts';

/** Where the local log goes, under the suite's project. */
export const LOCAL_LOG_DIR = join('log', 'llm-evals');

/** The local log's file for an experiment: the run id stamps it, so a resend rewrites the same file. */
export function localLogFile(projectDir: string, experiment: Pick<ExperimentInfo, 'experimentId' | 'runId'>) {
  return join(projectDir, LOCAL_LOG_DIR, `${experiment.experimentId}.${experiment.runId}.json`);
}

/** One case's row in the local log: its outcome without the reply text, which the snapshot keeps. */
function row(r: CaseRecord) {
  return {
    id: r.idempotencyId,
    case: r.caseId,
    variant: r.variant,
    status: r.status,
    score: r.score,
    metrics: r.metrics,
    outcomes: r.outcomes,
    diagnostics: r.diagnostics,
    ...(r.error === undefined ? {} : { error: r.error }),
    usage: r.usage,
    latency: r.latency,
    duration: r.duration,
    attempts: r.attempts,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
  };
}

/** The local log's content: the experiment's settings, means, errors, usage and one row per case. */
export function localLog(experiment: ExperimentInfo, summary: Summary, records: readonly CaseRecord[]) {
  const { runId, experimentId, suite, project, contender, dataset, caseCount } = experiment;
  return {
    runId,
    experiment: experimentId,
    suite,
    project,
    settings: { ...contender, dataset, cases: caseCount },
    means: { score: summary.score, ...summary.metrics },
    errors: summary.errors,
    usage: summary.usage,
    time: summary.time,
    latency: summary.latency,
    p95: summary.p95,
    startedAt: experiment.startedAt,
    finishedAt: experiment.finishedAt,
    cases: records.map(row),
  };
}

class LocalTracker implements Tracker {
  readonly name = 'local';
  private readonly rows = new Map<string, CaseRecord[]>();

  constructor(private readonly projectDir: string) {}

  enabled(): boolean {
    return true;
  }

  start(experiment: ExperimentInfo): Promise<void> {
    this.rows.set(experiment.experimentId, []);
    return Promise.resolve();
  }

  record(record: CaseRecord): Promise<void> {
    this.rows.get(record.experimentId)?.push(record);
    return Promise.resolve();
  }

  async finish(experiment: ExperimentInfo, summary: Summary): Promise<{ url?: string }> {
    const records = this.rows.get(experiment.experimentId) ?? [];
    this.rows.delete(experiment.experimentId);
    const file = localLogFile(this.projectDir, experiment);
    await mkdir(join(this.projectDir, LOCAL_LOG_DIR), { recursive: true });
    await writeFile(file, JSON.stringify(localLog(experiment, summary, records), null, 2) + '\n');
    return { url: file };
  }
}

/** The local tracker: always on beside any remote one; its section takes no keys yet. */
export const localTracker: TrackerDefinition = {
  name: 'local',
  packages: [],
  create(context: TrackerContext): Tracker {
    parseSection('local', z.strictObject({}), context);
    return new LocalTracker(context.projectDir);
  },
};
