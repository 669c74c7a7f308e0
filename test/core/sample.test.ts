import { describe, expect, it } from 'vitest';
import { quotas, sampleCases } from '../../src/core/sample.ts';

const cases = (dataset: string, variant: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ key: `${dataset}/${variant}/${i}`, dataset, variant }));

describe('--sample N', () => {
  it.each<[string, Record<string, number>, number, Record<string, number>]>([
    ['proportional shares', { a: 60, b: 40 }, 10, { a: 6, b: 4 }],
    ['remainders to the largest fractions', { a: 5, b: 3, c: 2 }, 4, { a: 2, b: 1, c: 1 }],
    ['a sample as large as the dataset takes it all', { a: 3, b: 2 }, 9, { a: 3, b: 2 }],
    ['a tie of fractions goes by name', { a: 1, b: 1 }, 1, { a: 1, b: 0 }],
  ])('%s', (_name, sizes, n, want) => {
    expect(Object.fromEntries(quotas(new Map(Object.entries(sizes)), n))).toEqual(want);
  });

  const suite = [...cases('north', 'easy', 30), ...cases('north', 'hard', 10), ...cases('south', 'easy', 5)];

  it('takes N per dataset, stratified by variant, all of a smaller dataset', () => {
    const sample = sampleCases(suite, 8, 1);
    const count = (dataset: string, variant: string) =>
      sample.filter((c) => c.dataset === dataset && c.variant === variant).length;
    expect([count('north', 'easy'), count('north', 'hard'), count('south', 'easy')]).toEqual([6, 2, 5]);
  });

  it('is the same for the same seed, another for another, in the suite’s order', () => {
    const keys = (seed: number) => sampleCases(suite, 8, seed).map((c) => c.key);
    expect(keys(1)).toEqual(keys(1));
    expect(keys(1)).not.toEqual(keys(2));
    const order = suite.map((c) => c.key);
    expect(keys(1)).toEqual([...keys(1)].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
  });

  it('a case added to the suite moves at most one other out', () => {
    const before = new Set(sampleCases(suite, 8, 3).map((c) => c.key));
    const grown = [...suite, { key: 'north/easy/new', dataset: 'north', variant: 'easy' }];
    const after = new Set(sampleCases(grown, 8, 3).map((c) => c.key));
    const lost = [...before].filter((k) => !after.has(k));
    expect(lost.length).toBeLessThanOrEqual(1);
  });
});
