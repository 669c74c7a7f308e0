import { describe, expect, it } from 'vitest';
import { meanSkippingNull, p95, summarize } from '../../src/core/aggregate.ts';
import type { CaseResult } from '../../src/core/results.ts';

describe('meanSkippingNull', () => {
  it.each([
    [[1, 0, 0.5], 0.5],
    [[1, null, 0], 0.5],
    [[null, undefined, 0.25], 0.25],
    [[null, null], null],
    [[], null],
    [[NaN, 1], 1],
  ])('%j → %s', (values, mean) => {
    expect(meanSkippingNull(values)).toBe(mean);
  });
});

describe('p95', () => {
  it.each([
    [[], null],
    [[3], 3],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 19],
    [[5, 1, 4, 2, 3], 5],
  ])('%j → %s', (values, expected) => {
    expect(p95(values)).toBe(expected);
  });
});

const result = (over: Partial<CaseResult>): CaseResult => ({
  experimentId: 'e',
  caseKey: 'd/c',
  status: 'scored',
  score: 1,
  metrics: { acc: 1 },
  outcomes: {},
  diagnostics: {},
  usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.01 },
  latency: 1,
  duration: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:10.000Z',
  attempts: 1,
  ...over,
});

describe('summarize', () => {
  it('a call that failed after its retries is an error, 0 in score and the compared metric, as the paired tests count it', () => {
    const s = summarize(
      [result({}), result({ status: 'error', score: null, metrics: {}, latency: null })],
      ['acc', 'rate'],
      1,
      'acc',
    );
    expect(s).toMatchObject({
      cases: 2,
      score: 0.5,
      metrics: { acc: 0.5, rate: null },
      errors: 1,
      latency: 1,
    });
    expect(s.valued).toEqual({ score: 2, acc: 2, rate: 0 });
  });

  it.each<[string, Partial<CaseResult>[], string | undefined, number | null, number]>([
    ['all scored', [{}, {}], 'acc', 1, 2],
    ['a failed call is 0 when compared', [{}, { status: 'error', score: null, metrics: {} }], 'acc', 0.5, 2],
    [
      'a failed call has no value when not compared',
      [{}, { status: 'error', score: null, metrics: {} }],
      undefined,
      1,
      1,
    ],
    [
      'a failed reply without the compared metric is 0',
      [{}, { status: 'reply_error', score: 0, metrics: {} }],
      'acc',
      0.5,
      2,
    ],
    [
      'a failed reply keeps what the scorer gave it',
      [{}, { status: 'reply_error', score: 0, metrics: { acc: 0.5 } }],
      'acc',
      0.75,
      2,
    ],
    ['a scored case without the metric has no value', [{}, { metrics: { acc: null } }], 'acc', 1, 1],
    ['only failed calls', [{ status: 'error', score: null, metrics: {} }], 'acc', 0, 1],
  ])('acc: %s', (_name, over, compared, mean, valued) => {
    const s = summarize(
      over.map((o) => result(o)),
      ['acc'],
      1,
      compared,
    );
    expect([s.metrics.acc, s.valued.acc]).toEqual([mean, valued]);
  });

  it('a reply error scores 0 and counts as an error', () => {
    const s = summarize(
      [result({}), result({ status: 'reply_error', score: 0, metrics: { acc: 0 } })],
      ['acc'],
    );
    expect(s).toMatchObject({ score: 0.5, metrics: { acc: 0.5 }, errors: 1 });
  });

  it('a failed reply leaves latency and p95, so a model whose every reply failed is never the fastest', () => {
    const failedFast = (latency: number) =>
      result({ status: 'reply_error', score: 0, metrics: { acc: 0 }, latency, error: 'not JSON' });
    const mixed = summarize([result({ latency: 3 }), failedFast(0.1), result({ latency: 5 })], ['acc']);
    expect(mixed).toMatchObject({ latency: 4, p95: 5, errors: 1 });
    const rude = summarize([failedFast(0.1), failedFast(0.2)], ['acc']);
    expect(rude).toMatchObject({ latency: null, p95: null, errors: 2 });
  });

  it('a metric that does not apply (null) is skipped', () => {
    expect(
      summarize([result({ metrics: { acc: null } }), result({ metrics: { acc: 0.5 } })], ['acc']).metrics.acc,
    ).toBe(0.5);
  });

  it.each([
    ['unknown everywhere stays unknown', [null, null], null],
    ['known parts add up', [0.01, 0.02], 0.03],
    ['an unknown part does not zero the rest', [0.01, null], 0.01],
  ])('cost: %s', (_name, costs, total) => {
    const s = summarize(
      costs.map((costUsd) => result({ usage: { inputTokens: null, outputTokens: null, costUsd } })),
      [],
    );
    expect(s.usage.costUsd === null ? null : Number(s.usage.costUsd.toFixed(6))).toBe(total);
  });

  it.each([
    ['wall time from first start to last end', 1, 0, 10],
    ['waits on limits are left out', 1, 4, 2],
    ['waits are averaged over the slots', 2, 4, 6],
  ])('time: %s', (_name, slots, waited, time) => {
    const s = summarize([result({ waited }), result({ waited })], [], slots);
    expect(s.time).toBe(time);
  });

  /** A case that ran from `from` to `to` seconds past noon. */
  const ran = (from: number, to: number, waited = 0) =>
    result({
      startedAt: new Date(Date.UTC(2025, 0, 1, 12, 0, 0, from * 1000)).toISOString(),
      finishedAt: new Date(Date.UTC(2025, 0, 1, 12, 0, 0, to * 1000)).toISOString(),
      waited,
    });

  it.each<[string, CaseResult[], number, number | null]>([
    ['no case', [], 1, null],
    ['one case', [ran(0, 3)], 1, 3],
    ['cases in flight together count once', [ran(0, 4), ran(1, 3), ran(2, 5)], 3, 5],
    ['back to back', [ran(0, 2), ran(2, 5)], 1, 5],
    // A run stopped after 4.7 s of calls and resumed 16 s later: 4.7 s, not 20.7 s.
    ['an interruption between cases is left out', [ran(0, 2.5), ran(1, 3), ran(19, 20.7)], 2, 4.7],
    ['in any order', [ran(19, 20.7), ran(0, 2.5), ran(1, 3)], 2, 4.7],
    ['waits on limits still left out, over the slots', [ran(0, 4, 2), ran(10, 12, 2)], 2, 4],
  ])('time is the seconds some case was running: %s', (_name, results, slots, time) => {
    const s = summarize(results, [], slots);
    expect(s.time === null ? null : Number(s.time.toFixed(3))).toBe(time);
  });
});
