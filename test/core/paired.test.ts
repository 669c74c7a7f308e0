import { describe, expect, it } from 'vitest';
import {
  comparePaired,
  holm,
  mcnemarExact,
  minimumDetectableDifference,
  normalQuantile,
  pairedTTest,
  resampleMeans,
  resampleMeansTogether,
} from '../../src/core/paired.ts';
import { fnv1a } from '../../src/core/fnv.ts';
import { quantile, seededRandom } from '../../src/core/stats.ts';

// Every reference value below was computed once with Python 3, scipy 1.17.1 and statsmodels 0.15.0 and pasted here:
// statsmodels.stats.contingency_tables.mcnemar(table, exact=True), scipy.stats.ttest_1samp(diffs, 0),
// statsmodels.stats.multitest.multipletests(p, method='holm'), scipy.stats.norm.ppf, and
// scipy.stats.bootstrap((diffs,), np.mean, n_resamples=100000, method='percentile', random_state=1).

describe('mcnemarExact', () => {
  it.each([
    [0, 0, 1.0],
    [1, 0, 1.0],
    [5, 5, 1.0],
    [10, 2, 0.03857421875],
    [0, 7, 0.015625],
    [3, 12, 0.03515625],
    [25, 10, 0.016673847800120715],
    [40, 60, 0.05688793364098089],
    [0, 40, 1.8189894035458565e-12],
  ])('b = %i, c = %i: p = %f (statsmodels)', (b, c, p) => {
    expect(mcnemarExact(b, c)).toBeCloseTo(p, 12);
    expect(Math.abs(mcnemarExact(b, c) - p) / p).toBeLessThan(1e-9);
  });
});

describe('pairedTTest', () => {
  it.each([
    [[0.5, 0.2, 0.1, 0.3, -0.1], 0.11611652351681565],
    [[0.1, 0.1, 0.1, 0.2], 0.015392438073302294],
    [[0.3, -0.2, 0.05, 0.0, 0.1, -0.15, 0.2], 0.5496980817921228],
    [[1, 0, 0.5, 0.25, 0.75, 0, 1, 0.5], 0.009627924725379822],
  ])('%j: p = %f (scipy)', (diffs, p) => {
    expect(Math.abs(pairedTTest(diffs) - p) / p).toBeLessThan(1e-8);
  });

  it.each([
    ['one case', [0.4], 1],
    ['all tied', [0, 0, 0], 1],
    ['a constant lead: the sign test, 2 × 0.5³', [0.5, 0.5, 0.5], 0.25],
    ['a constant lead over two cases tells nothing', [0.16, 0.16], 0.5],
  ])('%s: p = %f', (_, diffs, p) => expect(pairedTTest(diffs)).toBe(p));
});

describe('holm', () => {
  it.each([
    [
      [0.01, 0.04, 0.03, 0.005],
      [0.03, 0.06, 0.06, 0.02],
    ],
    [
      [0.5, 0.2, 0.9],
      [1.0, 0.6, 1.0],
    ],
    [
      [0.001, 0.001, 0.02, 0.04, 0.3],
      [0.005, 0.005, 0.06, 0.08, 0.3],
    ],
    [[], []],
  ])('%j → %j (statsmodels)', (ps, adjusted) => {
    holm(ps).forEach((p, i) => expect(p).toBeCloseTo(adjusted[i]!, 12));
    expect(holm(ps)).toHaveLength(adjusted.length);
  });
});

describe('normalQuantile and minimumDetectableDifference', () => {
  it.each([
    [0.975, 1.959963984540054],
    [0.8, 0.8416212335729143],
    [0.5, 0],
    [0.01, -2.3263478740408408],
    [0.999, 3.090232306167813],
  ])('z(%f) = %f (scipy)', (p, z) => expect(Math.abs(normalQuantile(p) - z)).toBeLessThan(1e-8));

  it.each([
    // (norm.ppf(0.975) + norm.ppf(0.8)) · sd / √n, in scipy.
    [40, 0.5, 0.22148475870741488],
    [400, 0.5, 0.07003963045282421],
    [1, 0.3, 0.8404755654338905],
    [0, 0.5, Infinity],
  ])('n = %i, sd = %f: %f', (n, sd, mdd) => {
    expect(minimumDetectableDifference(n, sd)).toBeCloseTo(mdd, 6);
  });
});

describe('comparePaired', () => {
  const binaryDiffs = [
    0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 1, 0, 0, 0, 0, -1, 1, 0, 1, 0, 1, 1, 0,
    1, 1, 1, 0, 0,
  ];
  // Pairs whose difference is that list: a 1 is (1, 0), a −1 (0, 1), a 0 alternately (1, 1) and (0, 0).
  const a = binaryDiffs.map((d, i) => (d === 1 ? 1 : d === -1 ? 0 : i % 2));
  const b = binaryDiffs.map((d, i) => (d === 1 ? 0 : d === -1 ? 1 : i % 2));

  it('0/1 cases: McNemar on the discordant pairs, a bootstrap interval as scipy draws it', () => {
    const r = comparePaired(a, b, { seed: fnv1a('run-1') });
    expect(r).toMatchObject({ n: 40, test: 'mcnemar-exact' });
    expect(r.meanDiff).toBeCloseTo(0.4, 12);
    expect(r.pValue).toBeCloseTo(mcnemarExact(17, 1), 12);
    // scipy: [0.225, 0.575]; 10,000 resamples put a quantile within about ±0.01 of it.
    expect(Math.abs(r.ci95[0] - 0.225)).toBeLessThan(0.02);
    expect(Math.abs(r.ci95[1] - 0.575)).toBeLessThan(0.02);
  });

  it('graded cases: the paired t-test, and the case-by-case bootstrap against scipy', () => {
    const diffs = [
      -0.21, 0.53, 0.15, -0.22, 0.48, 0.24, 0.17, -0.02, 0.01, -0.16, -0.36, 0.48, 0.07, 0.15, -0.08, 0.35,
      -0.37, -0.03, -0.37, -0.28, 0.57, 0.26, 0.03, 0.12, 0.47, -0.06, 0.19, 0.28, -0.04, 0.12,
    ];
    const r = comparePaired(
      diffs.map((d) => d + 0.4),
      diffs.map(() => 0.4),
      { seed: 7 },
    );
    expect(r.test).toBe('paired-t');
    expect(r.meanDiff).toBeCloseTo(0.08233333333333333, 10);
    expect(Math.abs(r.ci95[0] - -0.014)).toBeLessThan(0.015);
    expect(Math.abs(r.ci95[1] - 0.17833333333333332)).toBeLessThan(0.015);
    expect(r.pValue).toBeCloseTo(pairedTTest(diffs.map((d) => d + 0.4 - 0.4)), 12);
  });

  it('is the same for the same seed, and differs for another', () => {
    const one = comparePaired(a, b, { seed: fnv1a('run-1') });
    expect(comparePaired(a, b, { seed: fnv1a('run-1') })).toEqual(one);
    const means = (seed: string) => resampleMeans([0, 1, -1, 1, 0.5], 50, seededRandom(fnv1a(seed)));
    expect(means('run-1')).toEqual(means('run-1'));
    expect(means('run-2')).not.toEqual(means('run-1'));
  });

  it.each([
    ['all tied', [1, 0, 1, 1], [1, 0, 1, 1], { n: 4, meanDiff: 0, ci95: [0, 0], pValue: 1 }],
    ['n = 1', [1], [0], { n: 1, meanDiff: 1, ci95: [1, 1], pValue: 1 }],
    ['no pair', [null, 1], [1, null], { n: 0, meanDiff: 0, ci95: [0, 0], pValue: 1 }],
    // A contender erroring on every case enters as 0 per case (its caller's rule): 8 discordant pairs, p = 2/2⁸.
    [
      'B wrong on every case',
      [1, 1, 1, 1, 1, 1, 1, 1],
      [0, 0, 0, 0, 0, 0, 0, 0],
      { n: 8, meanDiff: 1, pValue: expect.closeTo(2 / 256, 12) as number },
    ],
    // Nulls leave the pair: 2 of 5 remain; t = 1 on 1 degree of freedom gives p = 0.5.
    ['nulls', [1, null, 0.5, 1, null], [0.5, 1, 0.5, null, 0], { n: 2, meanDiff: 0.25, test: 'paired-t' }],
    ['nulls, graded', [1, null, 0.5, 0.75, 0.25], [0.5, 1, 0.5, null, 0], { n: 3, test: 'paired-t' }],
  ] as const)('%s', (_, x, y, expected) => {
    expect(comparePaired(x, y, { seed: 1 })).toMatchObject(expected);
  });

  it('the multinomial draw and the case-by-case draw give the same quantiles within Monte Carlo error', () => {
    const few = Array.from({ length: 300 }, (_, i) => (i % 10 < 5 ? 0 : i % 10 < 8 ? 1 : -1));
    const cut = (means: Float64Array) => {
      const sorted = means.sort();
      return [0.025, 0.5, 0.975].map((p) => quantile(sorted, p));
    };
    const viaCounts = cut(resampleMeans(few, 20_000, seededRandom(5)));
    const byCase = cut(resampleMeans(few, 20_000, seededRandom(6), true));
    viaCounts.forEach((q, i) => expect(Math.abs(q - byCase[i]!)).toBeLessThan(0.01));
    // Both centre on the mean (0.1) with the normal width 1.96·sd/√n (sd = √(0.5 − 0.01) = 0.7).
    expect(viaCounts[1]).toBeCloseTo(0.1, 2);
    expect(viaCounts[2]! - viaCounts[0]!).toBeCloseTo((2 * 1.96 * 0.7) / Math.sqrt(300), 2);
  });

  it('drawing five contenders together (a pass of four columns and one of one) gives each its own resamples', () => {
    const columns = [0, 1, 2, 3, 4].map((c) =>
      Array.from({ length: 7 }, (_, i) => ((i * 3 + c * 5) % 11) / 10),
    );
    const together = resampleMeansTogether(columns, 300, seededRandom(7));
    expect(together).toHaveLength(5);
    columns.forEach((column, c) => {
      const alone = resampleMeans(column, 300, seededRandom(7), true);
      together[c]!.forEach((m, r) => expect(m).toBeCloseTo(alone[r]!, 12));
    });
  });

  it('drawing several contenders together gives each pair the resamples of its own differences', () => {
    const a = [0.9, 0.1, 0.55, 1, 0.3, 0.75];
    const b = [0.2, 0.4, 0.5, 1, 0.35, 0.1];
    const [meansA, meansB] = resampleMeansTogether([a, b], 500, seededRandom(11));
    const own = resampleMeans(
      a.map((x, i) => x - b[i]!),
      500,
      seededRandom(11),
      true,
    );
    meansA!.forEach((m, r) => expect(m - meansB![r]!).toBeCloseTo(own[r]!, 12));
    const viaTogether = comparePaired(a, b, { seed: 1, resampled: meansA!.map((m, r) => m - meansB![r]!) });
    const sorted = Float64Array.from(own).sort();
    expect(viaTogether.ci95[0]).toBeCloseTo(quantile(sorted, 0.025), 12);
    expect(viaTogether.ci95[1]).toBeCloseTo(quantile(sorted, 0.975), 12);
  });
});
