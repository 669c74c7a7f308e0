import { summarize } from '../core/aggregate.ts';
import { comparedMetric } from '../core/comparisons.ts';
import type { Snapshot } from '../core/snapshot.ts';
import type { CaseRecord, TrackedExperiment } from './types.ts';

/** The id a case's record carries to every tracker: the same for the same run, experiment and case, however often sent. */
export function idempotencyId(runId: string, experimentId: string, caseKey: string): string {
  return `${runId}/${experimentId}/${caseKey}`;
}

/**
 * Every experiment of a saved run (or only `experimentId`), in plan order, with its finished cases in case order and
 * its summary: what a tracker is sent. `project` is the tracker project's name (the suite's name when not given).
 */
export function fromSnapshot(
  snapshot: Snapshot,
  options: { project?: string; experimentId?: string } = {},
): TrackedExperiment[] {
  const contenders = new Map(snapshot.contenders.map((c) => [c.key, c]));
  const cases = new Map(snapshot.cases.map((c) => [c.key, c]));
  const metricNames = snapshot.metrics.map((m) => m.name);
  const wanted = options.experimentId;
  const experiments = wanted ? snapshot.experiments.filter((e) => e.id === wanted) : snapshot.experiments;
  return experiments.map((e) => {
    const contender = contenders.get(e.contender);
    if (!contender)
      throw new Error(`snapshot ${snapshot.runId}: experiment ${e.id} names no known contender`);
    const byCase = new Map(
      snapshot.results.filter((r) => r.experimentId === e.id).map((r) => [r.caseKey, r]),
    );
    const records = e.caseKeys.flatMap((key): CaseRecord[] => {
      const result = byCase.get(key);
      const kase = cases.get(key);
      if (!result || !kase) return [];
      return [
        {
          ...result,
          idempotencyId: idempotencyId(snapshot.runId, e.id, key),
          runId: snapshot.runId,
          caseId: kase.id,
          dataset: kase.dataset,
          variant: kase.variant,
          input: kase.input,
          expected: kase.expected,
          metadata: kase.metadata,
        },
      ];
    });
    const starts = records.map((r) => r.startedAt).sort();
    const ends = records.map((r) => r.finishedAt).sort();
    const { key, id, provider, model, effort, temperature, maxTokens } = contender;
    return {
      experiment: {
        runId: snapshot.runId,
        experimentId: e.id,
        suite: snapshot.suite.name,
        project: options.project ?? snapshot.suite.name,
        contender: { key, id, provider, model, effort, temperature, maxTokens },
        dataset: e.dataset,
        caseCount: e.caseKeys.length,
        startedAt: starts[0] ?? snapshot.createdAt,
        finishedAt: ends.at(-1) ?? snapshot.finishedAt,
      },
      records,
      // Counted as the report counts them: a failed call is 0 in score and the compared metric.
      summary: summarize(records, metricNames, snapshot.settings.parallelism, comparedMetric(snapshot)),
    };
  });
}
