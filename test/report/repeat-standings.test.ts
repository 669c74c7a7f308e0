import { describe, expect, it } from 'vitest';
import { contenderKey, repeatContenders } from '../../src/core/matrix.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { renderLeaderboard } from '../../src/report/leaderboard.ts';
import { standings } from '../../src/report/standings.ts';
import { stripAnsi } from '../helpers/cli.ts';

const T_975_4 = 2.7764451051977987; // R: qt(0.975, 4)

/** A run of one case per repeat: `scores[id]` is that contender's score in repeat 1, 2… */
function repeated(scores: Record<string, number[]>, cost: Record<string, number> = {}): Snapshot {
  const times = Object.values(scores)[0]!.length;
  const bases = Object.keys(scores).map((id) => {
    const base = { provider: 'fake', id, effort: 'default', temperature: null, maxTokens: null };
    return { ...base, key: contenderKey(base), model: id.split('/')[1]!, limits: [] };
  });
  const contenders = repeatContenders(bases, times);
  const experiments = contenders.map((c, i) => ({
    id: `${String(i + 1).padStart(3, '0')}-d`,
    contender: c.key,
    dataset: 'd',
    caseKeys: ['d/v'],
  }));
  const results = experiments.map((e, i) => {
    const c = contenders[i]!;
    const score = scores[c.id]![c.repeat! - 1]!;
    return {
      experimentId: e.id,
      caseKey: 'd/v',
      status: 'scored' as const,
      score,
      metrics: { score },
      outcomes: {},
      diagnostics: {},
      usage: { inputTokens: 1, outputTokens: 1, costUsd: cost[c.id] ?? 0.01 },
      latency: 1,
      duration: 1,
      startedAt: '2026-11-30T12:00:00.000Z',
      finishedAt: '2026-11-30T12:00:01.000Z',
      attempts: 1,
    };
  });
  return {
    version: 1,
    runId: 'r',
    suite: { name: 's', project: '/p' },
    status: 'completed',
    createdAt: '2026-11-30T12:00:00.000Z',
    finishedAt: '2026-11-30T12:01:00.000Z',
    options: {},
    settings: { parallelism: 1, concurrency: 1, repeat: times },
    contenders,
    refused: [],
    experiments,
    metrics: [{ name: 'score', description: 'The score.', primary: true }],
    cases: [{ key: 'd/v', id: 'v', dataset: 'd', variant: 'v', input: 'i', expected: null, metadata: {} }],
    results,
  };
}

const A = [0.5, 0.6, 0.7, 0.8, 0.9]; // mean 0.7, s = 0.158114, se = 0.0707107
const B = [0.85, 0.9, 0.95, 0.9, 0.9]; // mean 0.9, s = 0.0353553, se = 0.0158114
const C = [0.95, 0.97, 0.99, 0.97, 0.97]; // mean 0.97, s = 0.0141421, se = 0.00632456

describe('--repeat standings: one row per contender, means with 95 % t-intervals', () => {
  it.each<[string, number[], number, number]>([
    ['A', A, 0.7, T_975_4 * (0.158113883 / Math.sqrt(5))],
    ['B', B, 0.9, T_975_4 * (0.0353553391 / Math.sqrt(5))],
    ['C', C, 0.97, T_975_4 * (0.0141421356 / Math.sqrt(5))],
  ])('contender %s: the mean and the t-interval of its repeats', (_, values, mean, half) => {
    const s = standings(repeated({ 'fake/x': values }));
    expect(s.datasets[0]!.rows).toHaveLength(1);
    const row = s.datasets[0]!.rows[0]!;
    expect(row.contender.key).toBe('fake:fake/x effort=default');
    expect(row.contender.repeat).toBeUndefined();
    expect(row.summary.score).toBeCloseTo(mean, 12);
    expect(row.summary.cases).toBe(5);
    expect(row.intervals!.score!.mean).toBeCloseTo(mean, 12);
    expect(row.intervals!.score!.low).toBeCloseTo(mean - half, 8);
    expect(row.intervals!.score!.high).toBeCloseTo(mean + half, 8);
    expect(row.intervals!.score!.n).toBe(5);
  });

  it.each<[string, Record<string, number[]>, Record<string, number>, string | undefined, string | undefined]>(
    [
      // B's interval [0.856, 0.944] reaches below A's top 0.896: not separated.
      ['overlapping', { 'fake/a': A, 'fake/b': B }, {}, 'fake/a', 'fake/a'],
      // C [0.952, 0.988] clears B [0.856, 0.944].
      ['apart', { 'fake/b': B, 'fake/c': C }, {}, undefined, undefined],
      // C is best; B is cheaper but 7 points down, so C is best value too, and the next value pick (B) is apart.
      ['apart, B cheaper', { 'fake/b': B, 'fake/c': C }, { 'fake/b': 0.001 }, undefined, undefined],
    ],
  )('best and best value say when the top two are %s', (_, scores, cost, bestTie, valueTie) => {
    const table = standings(repeated(scores, cost)).datasets[0]!;
    expect(table.bestTie?.contender.id).toBe(bestTie);
    expect(table.bestValueTie?.contender.id).toBe(valueTie);
  });

  it('the leaderboard shows mean ± half-interval, the tie, and the method in its glossary', () => {
    const text = stripAnsi(renderLeaderboard(repeated({ 'fake/a': A, 'fake/b': B }), { width: 200 }));
    expect(text).toMatch(/│ +90\.0% ±4\.4 │/);
    expect(text).toMatch(/│ +70\.0% ±19\.6 │/);
    // One case: the paired comparison cannot tell the two apart, and says so in place of the intervals' overlap.
    expect(text).toContain(
      'd: best and best value fake/b, 90.0% ±4.4 score at $0.0500, tied with fake/a (p = 1.00, 1 case)',
    );
    expect(text).toContain("95 % t-interval (Student's t on the repeats' means, 4 degrees of freedom)");
    const twice = { ...repeated({ 'fake/a': A, 'fake/b': B }) };
    twice.settings = { ...twice.settings, repeat: 2 };
    expect(stripAnsi(renderLeaderboard(twice, { width: 200 }))).toContain(
      "repeats' means, 1 degree of freedom)",
    );
  });

  it('wscore gets an interval from each repeat’s weighted table', () => {
    const snapshot = { ...repeated({ 'fake/a': A, 'fake/b': B }), weights: { score: 1 } };
    const row = standings(snapshot).datasets[0]!.rows.find((r) => r.contender.id === 'fake/a')!;
    expect(row.intervals!.wscore!.mean).toBeCloseTo(0.7, 12);
    expect(row.intervals!.wscore!.high - row.intervals!.wscore!.low).toBeCloseTo(
      2 * T_975_4 * 0.0707106781,
      8,
    );
  });

  it('without --repeat nothing changes: no intervals, no ties', () => {
    const table = standings(repeated({ 'fake/a': [0.5], 'fake/b': [0.9] })).datasets[0]!;
    expect(table.rows.every((r) => r.intervals === undefined)).toBe(true);
    expect(table.bestTie).toBeUndefined();
  });
});
