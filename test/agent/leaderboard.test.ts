import { describe, expect, it } from 'vitest';
import { contenderKey } from '../../src/core/matrix.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { renderLeaderboard } from '../../src/report/leaderboard.ts';
import { TrajectoryScorer } from '../../src/scorers/trajectory-scorer.ts';
import { stripAnsi } from '../helpers/cli.ts';

/** A run of one contender over two agent cases, with the trajectory scorer's metrics. */
function agentRun(): Snapshot {
  const base = { provider: 'fake', id: 'fake/agent', effort: 'default', temperature: null, maxTokens: null };
  const contender = { ...base, key: contenderKey(base), model: 'agent', limits: [] };
  const experiment = { id: '001-d', contender: contender.key, dataset: 'd', caseKeys: ['d/a', 'd/b'] };
  const result = (caseKey: string, metrics: Record<string, number>) => ({
    experimentId: experiment.id,
    caseKey,
    status: 'scored' as const,
    score: metrics.score!,
    metrics,
    outcomes: {},
    diagnostics: {},
    usage: { inputTokens: 1, outputTokens: 1, costUsd: 0 },
    latency: 1,
    duration: 1,
    startedAt: '2026-11-30T12:00:00.000Z',
    finishedAt: '2026-11-30T12:00:01.000Z',
    attempts: 1,
  });
  const kase = (variant: string) => ({
    key: `d/${variant}`,
    id: variant,
    dataset: 'd',
    variant,
    input: 'i',
    expected: null,
    metadata: {},
  });
  return {
    version: 1,
    runId: 'r',
    suite: { name: 's', project: '/p' },
    status: 'completed',
    createdAt: '2026-11-30T12:00:00.000Z',
    finishedAt: '2026-11-30T12:01:00.000Z',
    options: {},
    settings: { parallelism: 1, concurrency: 1 },
    contenders: [contender],
    refused: [],
    experiments: [experiment],
    metrics: new TrajectoryScorer().metrics(),
    cases: [kase('a'), kase('b')],
    results: [
      result('d/a', { score: 1, tool_precision: 1, tool_recall: 1, tool_f1: 1, order_ok: 1, steps: 3 }),
      result('d/b', { score: 0, tool_precision: 0.5, tool_recall: 1, tool_f1: 2 / 3, order_ok: 0, steps: 4 }),
    ],
  };
}

describe('the leaderboard of an agent suite', () => {
  it('shows the trajectory metrics, the shares as percentages and the mean steps as a number', () => {
    const text = stripAnsi(renderLeaderboard(agentRun(), { width: 200 }));
    const lines = text.split('\n');
    expect(lines.find((l) => l.includes('tool_f1'))).toMatch(
      /│ score │ tool_precision │ tool_recall │ tool_f1 │ order_ok │ steps │/,
    );
    // The shares as percentages; the steps, (3 + 4) / 2, as a count, never as 350 %.
    expect(lines.find((l) => l.includes('fake/agent'))).toMatch(
      /│ +50\.0% │ +75\.0% │ +100\.0% │ +83\.3% │ +50\.0% │ +3\.5 │/,
    );
  });
});
