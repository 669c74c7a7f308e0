import { describe, expect, it } from 'vitest';
import { fromCache, summarizeCache } from '../../src/core/cache-summary.ts';
import type { CaseResult } from '../../src/core/results.ts';

const EXPERIMENTS = [
  { id: 'e1', contender: 'a' },
  { id: 'e2', contender: 'b' },
];

function result(experimentId: string, fields: Partial<CaseResult> = {}): CaseResult {
  return {
    experimentId,
    caseKey: 'k',
    status: 'scored',
    score: 1,
    metrics: {},
    outcomes: {},
    diagnostics: {},
    usage: { inputTokens: 20, outputTokens: 10, costUsd: 0.25 },
    latency: 0.2,
    duration: 0.2,
    startedAt: '',
    finishedAt: '',
    attempts: 1,
    ...fields,
  };
}

const hit = { cached: { replies: 1, calls: 0, paidUsd: 0 } };
const half = { cached: { replies: 1, calls: 1, paidUsd: 0.1 } };

describe('fromCache', () => {
  it.each<[string, Partial<CaseResult>, boolean]>([
    ['a result with no cached mark', {}, false],
    ['every reply from the cache', hit, true],
    ['one reply from the cache, one call made', half, false],
  ])('%s: %s', (_, fields, want) => {
    expect(fromCache(result('e1', fields))).toBe(want);
  });
});

describe('summarizeCache', () => {
  it('is undefined for a run that took nothing from the cache', () => {
    expect(summarizeCache(EXPERIMENTS, [result('e1'), result('e2')])).toBeUndefined();
  });

  it('counts per contender: cached, skipped, results, and the cost paid against the replies’ cost', () => {
    const results = [
      result('e1', hit),
      result('e1', hit),
      result('e1', half),
      result('e2'),
      result('e2', {
        status: 'error',
        score: null,
        skipped: true,
        usage: { inputTokens: null, outputTokens: null, costUsd: null },
      }),
    ];
    expect(summarizeCache(EXPERIMENTS, results)).toEqual({
      a: { cached: 2, skipped: 0, results: 3, paidUsd: 0.1, replyCostUsd: 0.75 },
      b: { cached: 0, skipped: 1, results: 1, paidUsd: 0.25, replyCostUsd: 0.25 },
    });
  });
});
