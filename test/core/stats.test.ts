import { describe, expect, it } from 'vitest';
import {
  bootstrapInterval,
  lnGamma,
  quantile,
  regularizedBeta,
  seededRandom,
  separated,
  studentTCdf,
  studentTQuantile,
  tInterval,
  type Interval,
} from '../../src/core/stats.ts';

describe('studentTQuantile', () => {
  // The two-sided 95 % critical values every t table prints (3 decimals), and R's qt(0.975, df) to 12 digits.
  it.each([
    [1, 12.706, 12.7062047361747],
    [2, 4.303, 4.30265272974946],
    [5, 2.571, 2.57058183563631],
    [10, 2.228, 2.22813885198627],
    [30, 2.042, 2.04227245630124],
    [120, 1.98, 1.97993040508244],
  ])('t(0.975, %i) = %f', (df, table, r) => {
    const t = studentTQuantile(0.975, df);
    expect(t).toBeCloseTo(table, 3);
    expect(Math.abs(t - r)).toBeLessThan(1e-9);
  });

  // Closed forms, independent of the incomplete beta: df 1 is Cauchy, df 2 and 4 have their own formulas.
  const closed: Record<number, (p: number) => number> = {
    1: (p) => Math.tan(Math.PI * (p - 0.5)),
    2: (p) => (2 * p - 1) / Math.sqrt(2 * p * (1 - p)),
    4: (p) => {
      const alpha = 4 * p * (1 - p);
      const q = Math.cos(Math.acos(Math.sqrt(alpha)) / 3) / Math.sqrt(alpha);
      return Math.sign(p - 0.5) * 2 * Math.sqrt(q - 1);
    },
  };
  it.each([
    [1, 0.6],
    [1, 0.995],
    [2, 0.9],
    [2, 0.025],
    [4, 0.975],
    [4, 0.75],
    [4, 0.001],
  ])('df %i, p %f matches the closed form', (df, p) => {
    expect(Math.abs(studentTQuantile(p, df) - closed[df]!(p))).toBeLessThan(1e-9);
  });

  it.each([
    [0.975, 1e6, 1.959964],
    [0.5, 3, 0],
    [0.995, 10, 3.169273],
  ])('t(%f, %f) ≈ %f', (p, df, want) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(want, 5);
  });

  it.each([
    [0, 3],
    [1, 3],
    [0.5, 0],
  ])('p %f, df %f has no quantile', (p, df) => {
    expect(studentTQuantile(p, df)).toBeNaN();
  });

  it('inverts the CDF', () => {
    for (const df of [1, 3, 7, 25]) {
      for (const p of [0.01, 0.2, 0.8, 0.999])
        expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 10);
    }
  });
});

describe('the special functions under it', () => {
  it.each([
    [1, 0],
    [2, 0],
    [5, Math.log(24)],
    [0.5, Math.log(Math.sqrt(Math.PI))],
    [10.5, Math.log(1133278.388948786)],
  ])('lnGamma(%f)', (x, want) => {
    expect(lnGamma(x)).toBeCloseTo(want, 12);
  });

  it.each([
    // I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 − (1 − x)^b; I_0.5(a, a) = 0.5.
    [0.3, 1, 1, 0.3],
    [0.3, 3, 1, 0.027],
    [0.3, 1, 4, 1 - 0.7 ** 4],
    [0.5, 7.5, 7.5, 0.5],
    [0, 2, 3, 0],
    [1, 2, 3, 1],
  ])('I_%f(%f, %f)', (x, a, b, want) => {
    expect(regularizedBeta(x, a, b)).toBeCloseTo(want, 12);
  });
});

describe('tInterval', () => {
  it('computes the interval of a small sample', () => {
    // [1, 2, 3, 4, 5]: mean 3; s² = (4 + 1 + 0 + 1 + 4) / 4 = 2.5; se = √(2.5 / 5) = 0.707107;
    // t(0.975, 4) = 2.776445; half-width = 1.963243, so [1.036757, 4.963243].
    const i = tInterval([1, 2, 3, 4, 5])!;
    expect(i.mean).toBe(3);
    expect(i.low).toBeCloseTo(1.036757, 6);
    expect(i.high).toBeCloseTo(4.963243, 6);
    expect(i.n).toBe(5);
  });

  it('narrows at a lower level', () => {
    // t(0.95, 4) = 2.131847: half-width 1.507443.
    const i = tInterval([1, 2, 3, 4, 5], 0.9)!;
    expect(i.high - i.mean).toBeCloseTo(1.507443, 5);
  });

  it.each([[[]], [[0.7]]])('has none for %j', (values) => {
    expect(tInterval(values)).toBeNull();
  });

  it('is a point for identical values', () => {
    const i = tInterval([0.8, 0.8, 0.8])!;
    for (const v of [i.mean, i.low, i.high]) expect(v).toBeCloseTo(0.8, 12);
  });
});

describe('bootstrapInterval', () => {
  const sample = [0.61, 0.72, 0.55, 0.8, 0.67, 0.74, 0.59, 0.7, 0.66, 0.71, 0.63, 0.77];

  it('is the same for the same seed, and differs for another', () => {
    expect(bootstrapInterval(sample, { seed: 7 })).toEqual(bootstrapInterval(sample, { seed: 7 }));
    expect(bootstrapInterval(sample, { seed: 7 })).not.toEqual(bootstrapInterval(sample, { seed: 8 }));
  });

  it('holds the mean and lands near the t-interval for a well-behaved sample', () => {
    const b = bootstrapInterval(sample, { resamples: 5000 })!;
    const t = tInterval(sample)!;
    expect(b.low).toBeLessThan(b.mean);
    expect(b.high).toBeGreaterThan(b.mean);
    // The percentile bootstrap runs a little narrow on small samples: within a fifth of the t half-width.
    expect(Math.abs(b.high - b.low - (t.high - t.low))).toBeLessThan(0.2 * (t.high - t.low));
  });

  it.each([[[]], [[1]]])('has none for %j', (values) => {
    expect(bootstrapInterval(values)).toBeNull();
  });

  it('is a point for identical values', () => {
    expect(bootstrapInterval([2, 2, 2, 2])).toMatchObject({ low: 2, high: 2 });
  });
});

describe('quantile and seededRandom', () => {
  it.each([
    [0, 1],
    [0.5, 2.5],
    [0.25, 1.75],
    [1, 4],
  ])('quantile([1, 2, 3, 4], %f) = %f', (p, want) => {
    expect(quantile([1, 2, 3, 4], p)).toBeCloseTo(want, 12);
  });

  it('draws in [0, 1), the same sequence for a seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const draws = Array.from({ length: 1000 }, () => a());
    expect(draws.every((d) => d >= 0 && d < 1)).toBe(true);
    expect(Array.from({ length: 1000 }, () => b())).toEqual(draws);
    expect(draws.reduce((s, d) => s + d, 0) / 1000).toBeCloseTo(0.5, 1);
  });
});

describe('separated', () => {
  const at = (low: number, high: number): Interval => ({
    mean: (low + high) / 2,
    low,
    high,
    n: 5,
    level: 0.95,
  });
  it.each([
    ['apart', at(0.1, 0.3), at(0.4, 0.6), true],
    ['apart, the other way round', at(0.4, 0.6), at(0.1, 0.3), true],
    ['overlapping', at(0.1, 0.45), at(0.4, 0.6), false],
    ['touching', at(0.1, 0.4), at(0.4, 0.6), false],
    ['one inside the other', at(0.1, 0.9), at(0.4, 0.6), false],
    ['one missing', at(0.1, 0.3), null, false],
  ])('%s', (_, a, b, want) => {
    expect(separated(a, b)).toBe(want);
  });

  it('tells two contenders apart by their repeats', () => {
    const strong = tInterval([0.91, 0.93, 0.92, 0.94, 0.9]);
    const weak = tInterval([0.81, 0.84, 0.8, 0.83, 0.82]);
    const close = tInterval([0.9, 0.95, 0.88, 0.93, 0.91]);
    expect(separated(strong, weak)).toBe(true);
    expect(separated(strong, close)).toBe(false);
  });
});
