import { mkdir, open } from 'node:fs/promises';
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

/**
 * The local log's text in pieces: the experiment's settings, means, errors, usage and times indented as
 * `JSON.stringify(log, null, 2)` would, then one case's row per line. An experiment of 250,000 cases makes no string
 * of its whole log (and its rows are made one at a time), nor a file too long to grep.
 */
function* localLogPieces(
  experiment: ExperimentInfo,
  summary: Summary,
  records: readonly CaseRecord[],
): Generator<string> {
  const { runId, experimentId, suite, project, contender, dataset, caseCount } = experiment;
  const head = JSON.stringify(
    {
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
    },
    null,
    2,
  );
  // The head without its closing brace, then the rows.
  yield `${head.slice(0, -2)},\n  "cases": [`;
  for (const [i, record] of records.entries()) yield `${i ? ',' : ''}\n    ${JSON.stringify(row(record))}`;
  yield records.length ? '\n  ]\n}\n' : ']\n}\n';
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
    const out = await open(file, 'w');
    try {
      // About a megabyte per write, each awaited: the worker's other activities and heartbeats go on between them.
      let chunk = '';
      for (const piece of localLogPieces(experiment, summary, records)) {
        chunk += piece;
        if (chunk.length >= 1 << 20) {
          await out.write(chunk);
          chunk = '';
        }
      }
      await out.write(chunk);
    } finally {
      await out.close();
    }
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
