import { describe, expect, it } from 'vitest';
import type { Case, Json, Score } from '../../src/api/types.ts';
import { contenderKey } from '../../src/core/matrix.ts';
import type { CaseResult } from '../../src/core/results.ts';
import { buildSnapshot, type Snapshot } from '../../src/core/snapshot.ts';
import { standings } from '../../src/report/standings.ts';
import { FieldScorer } from '../../src/scorers/field-scorer.ts';

// A failed reply must never look good: garbage (not JSON) is scored by the scorer's `failed`, and on no metric may a
// contender that only failed rank above one that answered — neither the perfect one nor one that guesses.

const scorer = new FieldScorer({
  colour: { type: 'enum', enum: ['red', 'blue'] },
  size: { type: 'integer', nullable: true },
  note: { type: 'string', nullable: true },
});

const CASES: Case[] = [
  { colour: 'red', size: 3, note: null },
  { colour: 'blue', size: null, note: null },
  { colour: 'red', size: null, note: 'fragile' },
].map((expected, i) => ({
  id: `v/${i}`,
  key: `d/v/${i}`,
  dataset: 'd',
  variant: 'v',
  input: `case ${i}`,
  expected,
  path: '/nowhere',
  metadata: {},
}));

/** What a contender replies: an output, or nothing usable. */
const GARBAGE = Symbol('not JSON');
type Answer = (kase: Case) => Json | typeof GARBAGE;
const CONTENDERS: Record<string, Answer> = {
  perfect: (kase) => kase.expected,
  // Fills every field, the unanswered ones too: hallucinates.
  guessing: () => ({ colour: 'blue', size: 7, note: 'guessed' }),
  garbage: () => GARBAGE,
};

function resultOf(experimentId: string, kase: Case, answer: Json | typeof GARBAGE): CaseResult {
  const failed = answer === GARBAGE;
  const score: Score = failed
    ? scorer.failed(kase, { error: 'not JSON' }, null)
    : scorer.call(kase, { output: answer }, null);
  return {
    experimentId,
    caseKey: kase.key,
    status: failed ? 'reply_error' : 'scored',
    score: failed ? 0 : score.value,
    metrics: score.metrics,
    outcomes: score.outcomes ?? {},
    diagnostics: score.diagnostics ?? {},
    ...(failed ? { error: 'not JSON' } : {}),
    usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.001 },
    // A failed reply comes back fast (no answer to write): it must not make its model look fast.
    latency: failed ? 0.05 : 1,
    duration: 1,
    startedAt: '2026-11-30T00:00:00.000Z',
    finishedAt: '2026-11-30T00:00:01.000Z',
    attempts: 1,
  };
}

function snapshotWith(weights?: Record<string, number>): Snapshot {
  const names = Object.keys(CONTENDERS);
  const contenders = names.map((name) => {
    const base = {
      provider: 'fake',
      id: `fake/${name}`,
      effort: 'default',
      temperature: null,
      maxTokens: null,
    };
    return { ...base, key: contenderKey(base), model: name, limits: [] };
  });
  const experiments = names.map((_, i) => ({ id: `00${i + 1}-d`, contender: i, dataset: 'd' }));
  const results = names.flatMap((name, i) =>
    CASES.map((kase) => resultOf(experiments[i]!.id, kase, CONTENDERS[name]!(kase))),
  );
  return buildSnapshot({
    runId: 'r',
    header: {
      createdAt: '2026-11-30T00:00:00.000Z',
      suite: { name: 's', project: '/p' },
      options: {},
      settings: { parallelism: 1, concurrency: 1 },
      metrics: scorer.metrics(),
      refused: [],
      ...(weights ? { weights } : {}),
    },
    input: {
      runId: 'r',
      suite: 's',
      contenders,
      experiments,
      datasets: { d: CASES.map((c) => [c.key, 'h'] as [string, string]) },
      parallelism: 1,
      concurrency: 1,
      limits: {},
    },
    status: 'completed',
    results,
    cases: CASES,
    finishedAt: '2026-11-30T00:00:01.000Z',
  });
}

describe('a failed reply never looks good', () => {
  it('is scored by the scorer: every field invalid, no hallucination counted', () => {
    const failed = scorer.failed(CASES[0]!, { error: 'not JSON' }, null);
    expect(failed.value).toBe(0);
    expect(failed.metrics).toEqual({ score: 0, exact: 0, hallucinated_rate: null, invalid_rate: 1 });
  });

  it.each<[string, Record<string, number> | undefined]>([
    ['by the primary metric', undefined],
    ['by the extraction example’s weights', { score: 5, hallucinated_rate: -6, invalid_rate: -8 }],
    ['by the rates alone', { hallucinated_rate: -1, invalid_rate: -1 }],
  ])('ranks below every contender that answered, %s', (_, weights) => {
    const table = standings(snapshotWith(weights)).overall;
    const order = table.rows.map((r) => r.contender.id);
    expect(order.at(-1)).toBe('fake/garbage');
    expect(table.best?.contender.id).not.toBe('fake/garbage');
    expect(table.bestValue?.contender.id).not.toBe('fake/garbage');
  });

  it.each([
    ['score', 'higher'],
    ['exact', 'higher'],
    ['invalid_rate', 'lower'],
    ['hallucinated_rate', 'lower'],
  ] as const)('is never better than a contender that answered on %s (%s is better)', (metric, better) => {
    const rows = standings(snapshotWith()).overall.rows;
    const value = (id: string) => rows.find((r) => r.contender.id === id)!.summary.metrics[metric] ?? null;
    const garbage = value('fake/garbage');
    for (const id of ['fake/perfect', 'fake/guessing']) {
      const other = value(id);
      // Left out of the mean (shown as -) is honest; a better number than one that answered is not.
      if (garbage === null || other === null) continue;
      expect(
        better === 'higher' ? garbage <= other : garbage >= other,
        `${metric}: garbage ${garbage} vs ${id} ${other}`,
      ).toBe(true);
    }
  });

  it.each(['latency', 'p95'] as const)(
    'leaves %s out, so a model whose every reply failed is never the fastest',
    (column) => {
      const rows = standings(snapshotWith({ [column]: -1 })).overall.rows;
      const garbage = rows.find((r) => r.contender.id === 'fake/garbage')!;
      expect(garbage.summary[column]).toBeNull();
      expect(rows.find((r) => r.contender.id === 'fake/perfect')!.summary[column]).toBe(1);
      expect(rows.at(-1)!.contender.id).toBe('fake/garbage');
    },
  );
});
