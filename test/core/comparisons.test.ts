import { describe, expect, it } from 'vitest';
import {
  compareContenders,
  differenceDesignEffect,
  differenceSpread,
  pointIntervals,
  type ComparisonSource,
} from '../../src/core/comparisons.ts';
import { caseSpreads, consistencyOf } from '../../src/core/consistency.ts';
import { contenderKey } from '../../src/core/matrix.ts';
import { mcnemarExact } from '../../src/core/paired.ts';
import type { CaseResult } from '../../src/core/results.ts';

type Cell = number | null | 'error';

const contender = (id: string, repeat?: number) => {
  const base = { provider: 'fake', id: `fake/${id}`, effort: 'default', temperature: null, maxTokens: null };
  return {
    ...base,
    key: contenderKey(base) + (repeat ? ` #${repeat}` : ''),
    model: id,
    limits: [],
    ...(repeat ? { repeat, seed: repeat } : {}),
  };
};

/** A run: per contender (and repeat), per dataset, the primary metric per case; `'error'` is a failed call. */
function source(table: Record<string, Record<string, readonly Cell[]>>, repeats = 1): ComparisonSource {
  const names = Object.keys(table);
  const contenders = names.flatMap((n) =>
    repeats > 1 ? Array.from({ length: repeats }, (_, i) => contender(n, i + 1)) : [contender(n)],
  );
  const experiments: ComparisonSource['experiments'] = [];
  const results: CaseResult[] = [];
  contenders.forEach((c) => {
    const cells = table[c.model]!;
    for (const [dataset, values] of Object.entries(cells)) {
      const id = `${c.key}/${dataset}`;
      const caseKeys = values.map((_, i) => `${dataset}/${i}`);
      experiments.push({ id, contender: c.key, dataset, caseKeys });
      const perRepeat = repeats > 1 ? values.length / repeats : values.length;
      values.forEach((v, i) => {
        if (repeats > 1 && Math.floor(i / perRepeat) !== (c.repeat ?? 1) - 1) return;
        const caseKey = `${dataset}/${i % perRepeat}`;
        const common = {
          experimentId: id,
          caseKey,
          outcomes: {},
          diagnostics: {},
          usage: { inputTokens: 1, outputTokens: 1, costUsd: 0.001 },
          latency: 1,
          duration: 1,
          startedAt: '2026-12-01T00:00:00.000Z',
          finishedAt: '2026-12-01T00:00:01.000Z',
          attempts: 1,
        };
        results.push(
          v === 'error'
            ? { ...common, status: 'error', score: null, metrics: {}, error: 'HTTP 500' }
            : { ...common, status: 'scored', score: v ?? 0, metrics: { exact: v } },
        );
      });
    }
  });
  return {
    runId: 'run-1',
    metrics: [{ name: 'exact', description: 'right or not', primary: true }],
    contenders,
    experiments,
    results,
    settings: { parallelism: 1, concurrency: 1 },
  };
}

const ones = (n: number): Cell[] => Array.from({ length: n }, () => 1);
const pattern = (n: number, right: (i: number) => boolean): Cell[] =>
  Array.from({ length: n }, (_, i) => (right(i) ? 1 : 0));

describe('compareContenders', () => {
  it('tests clustered cases on the clustered SE, 0/1 metrics too: a variant wrong whole is one cluster of evidence', () => {
    // 40 cases in 4 variants of 10; the challenger misses variant 0 whole. Independent: McNemar on 10 discordant
    // pairs, p ≈ 0.002. Clustered: SE = √((75 + 7.5/39) / 1600) (see test/gate), t on 3 degrees of freedom.
    const run = source({ oracle: { d: ones(40) }, broken: { d: pattern(40, (i) => i >= 10) } });
    const clusters = new Map(
      Array.from({ length: 40 }, (_, i) => [`d/${i}`, `variant:v${Math.floor(i / 10)}`]),
    );
    const plain = compareContenders(run).comparisons.find((c) => c.dataset === 'd')!;
    const clustered = compareContenders({ ...run, clusters }).comparisons.find((c) => c.dataset === 'd')!;
    expect(plain).toMatchObject({ test: 'mcnemar-exact', meanDiff: 0.25 });
    expect(plain.pAdjusted).toBeLessThan(0.05);
    expect(clustered).toMatchObject({ test: 'clustered-t', meanDiff: 0.25, n: 40 });
    expect(clustered.pAdjusted).toBeGreaterThan(0.05);
    const half = 3.182446305284263 * Math.sqrt((75 + 7.5 / 39) / 1600);
    expect(clustered.ci95[0]).toBeCloseTo(0.25 - half, 9);
    expect(clustered.ci95[1]).toBeCloseTo(0.25 + half, 9);
    expect(clustered.ci95[1] - clustered.ci95[0]).toBeGreaterThan(plain.ci95[1] - plain.ci95[0]);
  });

  it("measures the design effect of a run's clusters on its differences from the best", () => {
    const run = source({ oracle: { d: ones(40) }, broken: { d: pattern(40, (i) => i >= 10) } });
    const clusters = new Map(
      Array.from({ length: 40 }, (_, i) => [`d/${i}`, `variant:v${Math.floor(i / 10)}`]),
    );
    // Clustered over independent variance: (75 + 7.5/39) / 1600 against 7.5 / (39 · 40).
    expect(differenceDesignEffect({ ...run, clusters })).toBeCloseTo(
      (75 + 7.5 / 39) / 1600 / (7.5 / 1560),
      9,
    );
    expect(differenceDesignEffect(run)).toBe(1);
  });

  it('an always-right contender against a half-right and a mostly-right one on 40 cases', () => {
    const run = source({
      oracle: { d: ones(40) },
      half: { d: pattern(40, (i) => i % 2 === 0) },
      mostly: { d: pattern(40, (i) => i % 10 !== 0) },
    });
    const { comparisons, standings } = compareContenders(run);
    const half = comparisons.find((c) => c.dataset === 'd' && c.b === contender('half').key)!;
    const mostly = comparisons.find((c) => c.dataset === 'd' && c.b === contender('mostly').key)!;
    expect(half).toMatchObject({ a: contender('oracle').key, n: 40, meanDiff: 0.5, test: 'mcnemar-exact' });
    expect(half.pValue).toBeCloseTo(mcnemarExact(20, 0), 12);
    // Holm over the dataset's two comparisons: the smaller p doubles, the larger stays (and stays above it).
    expect(half.pAdjusted).toBeCloseTo(2 * mcnemarExact(20, 0), 12);
    expect(mostly.pValue).toBeCloseTo(0.125, 12);
    expect(mostly.pAdjusted).toBeCloseTo(0.125, 12);
    const mark = (id: string) =>
      standings.find((s) => s.dataset === 'd' && s.contender === contender(id).key);
    expect(mark('oracle')).toMatchObject({ best: true, tiedWithBest: false });
    expect(mark('half')).toMatchObject({ best: false, tiedWithBest: false });
    expect(mark('mostly')).toMatchObject({ best: false, tiedWithBest: true, n: 40 });
    // One dataset: all datasets are the same figures.
    expect(comparisons.filter((c) => c.dataset === null).map((c) => c.pAdjusted)).toEqual(
      comparisons.filter((c) => c.dataset === 'd').map((c) => c.pAdjusted),
    );
  });

  it.each([
    [
      'all tied',
      { a: { d: ones(5) }, b: { d: ones(5) } },
      { n: 5, meanDiff: 0, pValue: 1, pAdjusted: 1 },
      true,
    ],
    // Failed calls count as wrong, never dropped: 6 discordant pairs, p = 2/2⁶.
    [
      'B errors on every case',
      { a: { d: ones(6) }, b: { d: Array<Cell>(6).fill('error') } },
      { n: 6, meanDiff: 1 },
      false,
    ],
    ['n = 1', { a: { d: [1] }, b: { d: [0] } }, { n: 1, meanDiff: 1, pValue: 1 }, true],
    // A scored case without the metric leaves the pair: 3 of 5 remain.
    ['nulls', { a: { d: [1, 1, null, 1, 1] }, b: { d: [0, null, 1, 0, 1] } }, { n: 3 }, true],
  ] as const)('%s', (_, table, expected, tied) => {
    const { comparisons, standings } = compareContenders(source(table));
    const c = comparisons.find((x) => x.dataset === 'd')!;
    expect(c).toMatchObject({ a: contender('a').key, b: contender('b').key, ...expected });
    expect(standings.find((s) => s.dataset === 'd' && s.contender === contender('b').key)?.tiedWithBest).toBe(
      tied,
    );
  });

  it('with repeats, a case is the unit: its repeats are averaged first', () => {
    // 3 repeats of 4 cases: b gets case 0 right once in three, a always.
    const a = ones(12);
    const b: Cell[] = [0, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1];
    const { comparisons } = compareContenders(source({ a: { d: a }, b: { d: b } }, 3));
    expect(comparisons.find((c) => c.dataset === 'd')).toMatchObject({ n: 4, test: 'paired-t' });
    expect(comparisons.find((c) => c.dataset === 'd')!.meanDiff).toBeCloseTo(2 / 3 / 4, 12);
  });

  it('per dataset and across all, Holm within each; every pair with pairs: all', () => {
    const run = source({
      a: { x: ones(30), y: ones(30) },
      b: { x: pattern(30, (i) => i % 3 !== 0), y: ones(30) },
      c: { x: pattern(30, (i) => i % 2 === 0), y: pattern(30, (i) => i % 2 === 0) },
    });
    const best = compareContenders(run).comparisons;
    expect(best.map((c) => c.dataset)).toEqual(['x', 'x', 'y', 'y', null, null]);
    const all = compareContenders(run, { pairs: 'all' }).comparisons;
    expect(all.filter((c) => c.dataset === null)).toHaveLength(3);
    // The seed follows from the run id: the same run, the same intervals.
    expect(compareContenders(run).comparisons).toEqual(best);
  });
});

describe('consistencyOf: pass^k and flaky cases over --repeat', () => {
  it.each([
    // 4 cases × 3 repeats, repeat by repeat. Case 1 fails once, case 3's call fails in the third repeat (wrong).
    // Spread (sample sd per case, then the mean over cases): cases 1 and 3 are 1, 0, 1 → sd √(1/3) = 0.57735, so
    // (2 × 0.57735) / 4 = 0.288675.
    [
      'a failed call counts as wrong',
      [1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 'error'],
      0.5,
      ['d/1', 'd/3'],
      4,
      0.288675,
    ],
    ['always right', ones(12), 1, [], 4, 0],
    ['never right', Array<Cell>(12).fill(0), 0, [], 4, 0],
    // Case 2 has a value in one repeat only: too few to judge; case 0 is judged on its two values (right), case 3 wrong.
    // Spread: case 1 is 1, 0 → sd √½ = 0.707107, cases 0 and 3 none: 0.707107 / 3 = 0.235702.
    ['nulls', [1, 1, 1, 0, null, 0, null, 0, 1, null, null, 0], 1 / 3, ['d/1'], 3, 0.235702],
    // Graded: case 0 is 0.2, 0.4, 0.9 → sd √0.13 = 0.360555; case 1 always 0.5: (0.360555 + 0) / 2 = 0.180278.
    ['graded', [0.2, 0.5, 0.4, 0.5, 0.9, 0.5], 0, [], 2, 0.180278],
  ] as const)('%s', (_, values, passK, flaky, cases, spread) => {
    const [c] = consistencyOf(source({ a: { d: values } }, 3));
    expect(c).toMatchObject({ contender: contender('a').key, k: 3, cases, flaky });
    expect(c!.passK).toBeCloseTo(passK, 12);
    expect(c!.spread).toBeCloseTo(spread, 6);
  });

  it.each<[string, Cell[], Record<string, number>]>([
    [
      '0/1: only the cases whose repeats differ',
      [1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 'error'],
      { 'd/1': 0.577, 'd/3': 0.577 },
    ],
    ['graded, to 3 decimals (a tenth of a point)', [0.2, 0.5, 0.4, 0.5, 0.9, 0.5], { 'd/0': 0.361 }],
    ['repeats that agree: none', ones(12), {}],
  ])('caseSpreads, %s', (_, values, expected) => {
    const spreads = caseSpreads(source({ a: { d: values } }, 3));
    expect(
      Object.fromEntries([...spreads].map(([key, byContender]) => [key, byContender[contender('a').key]])),
    ).toEqual(expected);
  });

  it('names flaky cases in case-key order, whatever order the results finished in', () => {
    const run = source({ a: { d: [1, 1, 1, 1, 0, 1, 1, 0, 1, 1, 0, 1] } }, 3);
    const [c] = consistencyOf({ ...run, results: [...run.results].reverse() });
    expect(c!.flaky).toEqual(['d/0', 'd/2', 'd/3']);
  });

  it('nothing without repeats', () => {
    expect(consistencyOf(source({ a: { d: ones(4) } }))).toEqual([]);
  });
});

describe('differenceSpread: the spread of per-case differences from the best, for the detectable difference', () => {
  it.each<[string, Record<string, Record<string, readonly Cell[]>>, number | undefined]>([
    [
      'one right, one wrong case apart: the sample deviation',
      { best: { d: ones(4) }, half: { d: pattern(4, (i) => i % 2 === 0) } },
      0.57735,
    ],
    [
      'every case differs alike: no spread, no estimate',
      { best: { d: ones(2) }, none: { d: [0, 0] } },
      undefined,
    ],
    ['answers alike: no spread, no estimate', { best: { d: ones(3) }, twin: { d: ones(3) } }, undefined],
    ['one contender: nothing to pair', { best: { d: ones(3) } }, undefined],
  ])('%s', (_, table, expected) => {
    const spread = differenceSpread(source(table));
    if (expected === undefined) expect(spread).toBeUndefined();
    else expect(spread).toBeCloseTo(expected, 4);
  });
});

// The expected intervals are exact: a 0/1 case's bootstrap mean over 4 cases with 3 right is Binomial(4, 0.75)/4,
// whose 2.5 % and 97.5 % quantiles are 1/4 and 1 (P(X ≤ 0) = 0.004, P(X ≤ 1) = 0.051, P(X = 4) = 0.32); per-case
// means 1, ½, ½, 0 make 8·mean ~ Binomial(8, ½), quantiles 1/8 and 7/8 (P(S ≤ 1) = 9/256 = 0.035). 2,000 seeded
// resamples land on them (the next value is dozens of draws away).
describe("pointIntervals (the trend picture's whiskers)", () => {
  const key = (name: string) => contender(name).key;
  it.each<
    [string, Record<string, Record<string, readonly Cell[]>>, number, [string, string, [number, number]][]]
  >([
    ['3 of 4 right', { alpha: { north: [1, 0, 1, 1] } }, 1, [['alpha', 'north', [0.25, 1]]]],
    [
      // 3 right of 5: Binomial(5, 0.6)/5, quantiles 1/5 (P(X ≤ 0) = 0.010, P(X ≤ 1) = 0.087) and 1 (P(X = 5) = 0.078).
      'a failed case counts 0 and one without a value is left out, as the mean counts them',
      { alpha: { north: [1, 'error', null, 0, 1, 1] } },
      1,
      [['alpha', 'north', [0.2, 1]]],
    ],
    ['one case: no interval', { alpha: { north: [1] } }, 1, []],
    [
      'repeats: a case is the mean of its repeats',
      { alpha: { north: [1, 1, 0, 0, 1, 0, 0, 1] } },
      2,
      [['alpha', 'north', [0.125, 0.875]]],
    ],
    [
      'per contender and dataset',
      { alpha: { north: [1, 0, 1, 1], south: [0, 1, 1, 1] }, beta: { north: [1, 1, 0, 1] } },
      1,
      [
        ['alpha', 'north', [0.25, 1]],
        ['alpha', 'south', [0.25, 1]],
        ['beta', 'north', [0.25, 1]],
      ],
    ],
  ])('%s', (_, table, repeats, expected) => {
    const found = pointIntervals(source(table, repeats), 'exact');
    expect(found.map((p) => [p.contender, p.dataset, p.ci95])).toEqual(
      expected.map(([name, dataset, ci]) => [key(name), dataset, ci]),
    );
  });

  it('a graded metric over 400 cases: the normal interval mean ± 1.96·sd/√n, within Monte Carlo error', () => {
    const values = Array.from({ length: 400 }, (_, i) => (i % 4) / 3);
    const [point] = pointIntervals(source({ alpha: { north: values } }), 'exact');
    // mean ½; sd of 0, ⅓, ⅔, 1 equally often = √5/6 = 0.3727; half-width 1.96·0.3727/20 = 0.0365.
    expect(point!.ci95[0]).toBeCloseTo(0.5 - 0.0365, 2);
    expect(point!.ci95[1]).toBeCloseTo(0.5 + 0.0365, 2);
  });
});
