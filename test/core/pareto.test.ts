import { describe, expect, it } from 'vitest';
import { paretoFront, type ParetoPoint } from '../../src/core/pareto.ts';

const pts = (...xy: [number, number][]): ParetoPoint[] => xy.map(([x, y]) => ({ x, y }));

describe('paretoFront', () => {
  it.each<[string, ParetoPoint[], number[]]>([
    ['no points', [], []],
    ['one point', pts([1, 0.5]), [0]],
    ['a staircase, all on it, cheapest first', pts([4, 0.9], [1, 0.6], [2, 0.8]), [1, 2, 0]],
    ['a dearer, worse point is off it', pts([1, 0.9], [2, 0.8]), [0]],
    ['the same cost, a lower score is off it', pts([1, 0.9], [1, 0.8]), [0]],
    ['the same score, a higher cost is off it', pts([1, 0.9], [3, 0.9]), [0]],
    ['twins are both on it', pts([2, 0.7], [2, 0.7], [1, 0.5]), [2, 0, 1]],
    ['a cheap, weak point stays on it', pts([0.001, 0.1], [1, 0.95], [0.5, 0.5]), [0, 2, 1]],
    ['free counts as cheapest', pts([0, 0.7], [0.01, 0.9], [0.02, 0.6]), [0, 1]],
    ['non-finite points are left out', pts([Number.NaN, 1], [1, 0.5], [Infinity, 1]), [1]],
    [
      'the seed’s shape: best, best value and the dominated',
      pts([0.016, 0.9], [0.006, 0.95], [0.002, 0.93], [0.008, 0.7]),
      [2, 1],
    ],
  ])('%s', (_, points, want) => {
    expect(paretoFront(points)).toEqual(want);
  });
});
