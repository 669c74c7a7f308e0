import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/core/results.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { judgeTotals, renderJudgeLine } from '../../src/report/judge-line.ts';

const result = (over: Partial<CaseResult>): CaseResult =>
  ({
    experimentId: 'e',
    caseKey: 'd/c',
    status: 'scored',
    score: 1,
    metrics: {},
    outcomes: {},
    diagnostics: {},
    usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.01 },
    latency: 1,
    duration: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    ...over,
  }) as CaseResult;
const snapshot = (results: CaseResult[]) => ({ results }) as unknown as Snapshot;
const judged = (d: Record<string, number>) => result({ diagnostics: d });

describe('the judge closing line', () => {
  it.each<[CaseResult[], string]>([
    [[result({})], ''],
    [[], ''],
    [
      [
        judged({
          judge_calls: 1,
          judge_cached: 0,
          judge_usd: 0.001,
          judge_tokens_in: 100,
          judge_tokens_out: 10,
        }),
        judged({ judge_calls: 0, judge_cached: 1, judge_usd: 0, judge_tokens_in: 100, judge_tokens_out: 10 }),
      ],
      "judge: 1 call (1 from the cache), 200 tokens in, 20 out, $0.0010 apart from the contenders'",
    ],
    [
      [
        judged({ judge_calls: 3, judge_cached: 0, judge_usd: 0 }),
        result({
          status: 'error',
          score: null,
          error: 'the scorer failed: judge failure: j: no JSON; raw: "x"',
        }),
        result({ status: 'error', score: null, error: 'the scorer failed: boom' }),
      ],
      "judge: 3 calls, $0.0000 apart from the contenders'; 1 judge failure",
    ],
  ])('%#', (results, line) => {
    expect(renderJudgeLine(snapshot(results))).toBe(line);
  });

  it('keeps its figures apart from the contenders’ usage', () => {
    const t = judgeTotals(snapshot([judged({ judge_calls: 2, judge_usd: 0.5, judge_tokens_in: 7 })]));
    expect(t).toEqual({
      replies: 1,
      calls: 2,
      cached: 0,
      inputTokens: 7,
      outputTokens: null,
      costUsd: 0.5,
      failures: 0,
    });
  });
});
