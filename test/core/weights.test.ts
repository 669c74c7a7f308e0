import { describe, expect, it } from 'vitest';
import {
  bestIndex,
  bestValueIndex,
  byCost,
  errorPenalty,
  logPositions,
  weightedScores,
  weightProblems,
  weightShares,
  type BestCandidate,
  type WeightInput,
} from '../../src/core/weights.ts';

const row = (values: WeightInput['values'], errors = 0): WeightInput => ({ values, errors });
const rounded = (scores: (number | null)[]) =>
  scores.map((s) => (s === null ? null : Math.round(s * 1e4) / 1e4));

describe('weightProblems', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['the built-in columns', { score: 1, errors: -1, time: -1, cost: -1, latency: -1, p95: -1 }, []],
    ['a scorer metric', { exact: 2, hallucinated_rate: -3 }, []],
    ['tokens', { tokens: -1 }, ['tokens']],
    ['tok_in', { tok_in: -1 }, ['tok_in']],
    ['an unknown metric', { accuracy: 1 }, ['accuracy']],
    ['a zero weight', { score: 0 }, ['score']],
    ['a string weight', { score: 'high' }, ['score']],
  ])('%s', (_, weights, refused) => {
    expect(weightProblems(weights, ['exact', 'hallucinated_rate']).map((p) => p.key)).toEqual(refused);
  });

  it('names the weightable columns in its message', () => {
    expect(weightProblems({ tokens: -1 }, ['exact'])[0]).toEqual({
      key: 'tokens',
      value: -1,
      problem: 'cannot be weighted (weight one of score, errors, time, cost, latency, p95, exact)',
    });
  });
});

describe('weightShares', () => {
  it("gives the blog's shares: exact 20%, errors and invalid 32%, cost 10%", () => {
    const shares = weightShares({
      exact: 10,
      score: 5,
      latency: -5,
      cost: -5,
      time: -3,
      errors: -8,
      hallucinated_rate: -6,
      invalid_rate: -8,
    });
    expect(Object.fromEntries(shares.map((s) => [s.key, [s.direction, s.share]]))).toEqual({
      exact: ['high', 0.2],
      score: ['high', 0.1],
      latency: ['low', 0.1],
      cost: ['low', 0.1],
      time: ['low', 0.06],
      errors: ['low', 0.16],
      hallucinated_rate: ['low', 0.12],
      invalid_rate: ['low', 0.16],
    });
  });

  it('calls errors low-is-good whatever its sign', () => {
    expect(weightShares({ errors: 2 })[0]!.direction).toBe('low');
  });
});

describe('errorPenalty', () => {
  it.each([
    [0, 0],
    [1, 0.2],
    [2, 0.25],
    [3, 0.3],
    [10, 0.65],
  ])('%i errors take %f off', (errors, points) => {
    expect(errorPenalty(errors)).toBeCloseTo(points, 10);
  });
});

describe('logPositions', () => {
  it.each<[string, number[], number[]]>([
    ['each doubling moves the same', [1, 2, 4, 8], [0, 1 / 3, 2 / 3, 1]],
    ['an absurd maximum does not flatten the rest', [1, 2, 1024], [0, 0.1, 1]],
    ['all equal sit at the bottom', [3, 3, 3], [0, 0, 0]],
    ['one value sits at the bottom', [5], [0]],
    ['zero is one doubling below the lowest', [0, 1, 2], [0, 0.5, 1]],
    ['all zero sit at the bottom', [0, 0], [0, 0]],
  ])('%s', (_, values, want) => {
    logPositions(values).forEach((p, i) => expect(p).toBeCloseTo(want[i]!, 10));
  });
});

describe('weightedScores', () => {
  it.each<[string, Record<string, number>, WeightInput[], (number | null)[]]>([
    ['a metric counts as it is', { score: 1 }, [row({ score: 0.8 }), row({ score: 0.5 })], [0.8, 0.5]],
    ['a negative weight counts 1 − value', { rate: -1 }, [row({ rate: 0.25 })], [0.75]],
    [
      'weights mix by |w|',
      { score: 3, rate: -1 },
      [row({ score: 1, rate: 1 }), row({ score: 0, rate: 0 })],
      [0.75, 0.25],
    ],
    [
      'cost on a log scale: cheapest full, dearest none, a doubling between',
      { cost: -1 },
      [row({ cost: 0.01 }), row({ cost: 0.02 }), row({ cost: 0.04 })],
      [1, 0.5, 0],
    ],
    [
      'latency, time and p95 too',
      { latency: -1, time: -1, p95: -1 },
      [row({ latency: 1, time: 10, p95: 2 }), row({ latency: 4, time: 10, p95: 8 })],
      [1, 1 / 3],
    ],
    [
      'a missing weighted value gives no score',
      { score: 1, cost: -1 },
      [row({ score: 1, cost: null }), row({ score: 1, cost: 1 })],
      [null, 1],
    ],
    ['no errors earns the errors share in full', { score: 1, errors: -1 }, [row({ score: 0.5 }, 0)], [0.75]],
    [
      'one error forfeits the share and takes 20 points off',
      { score: 1, errors: -1 },
      [row({ score: 1 }, 1)],
      [0.3],
    ],
    ['two errors take 25 points', { score: 1, errors: -1 }, [row({ score: 1 }, 2)], [0.25]],
    ['three errors take 30 points', { score: 1, errors: -1 }, [row({ score: 1 }, 3)], [0.2]],
    ['the total never goes below 0', { score: 1, errors: -1 }, [row({ score: 0.2 }, 9)], [0]],
    ['unweighted errors change nothing', { score: 1 }, [row({ score: 0.9 }, 5)], [0.9]],
  ])('%s', (_, weights, rows, want) => {
    expect(rounded(weightedScores(rows, weights))).toEqual(rounded(want));
  });
});

describe('bestIndex and bestValueIndex', () => {
  const c = (rank: number | null, cost: number | null, errors = 0): BestCandidate => ({ rank, cost, errors });

  it.each<[string, BestCandidate[], number | undefined, number | undefined]>([
    ['the top when it is cheapest', [c(0.9, 1), c(0.8, 2)], 0, 0],
    ['the cheapest within 2 points', [c(0.9, 1), c(0.885, 0.1), c(0.87, 0.01)], 0, 1],
    ['exactly 2 points is within', [c(0.9, 1), c(0.88, 0.5)], 0, 1],
    ['a contender with errors is never best', [c(0.99, 0.01, 1), c(0.9, 1)], 1, 1],
    ['nor best value', [c(0.9, 1), c(0.9, 0.1, 2)], 0, 0],
    ['an unknown cost loses to a known one', [c(0.9, null), c(0.89, 3)], 0, 1],
    ['a tie in cost goes to the higher rank', [c(0.89, 1), c(0.9, 1)], 1, 1],
    // 0.1 + 0.2 is 0.30000000000000004: the same dollars summed in another order.
    ['costs apart only in their last bits tie', [c(0.9, 0.1 + 0.2), c(0.9, 0.3)], 0, 0],
    ['no score, no best', [c(null, 1)], undefined, undefined],
    ['everyone with errors: no best', [c(0.9, 1, 1)], undefined, undefined],
  ])('%s', (_, rows, best, value) => {
    expect(bestIndex(rows)).toBe(best);
    expect(bestValueIndex(rows)).toBe(value);
  });
});

describe('byCost', () => {
  it.each<[number | null, number | null, number]>([
    [1, 2, -1],
    [2, 1, 1],
    [0.1 + 0.2, 0.3, 0],
    [0.0004, 0.0004 * (1 + 1e-12), 0],
    [0.0004, 0.0005, -1],
    [null, 3, 1],
    [null, null, 0],
    [0, 0, 0],
  ])('%s against %s: %s', (a, b, order) => {
    expect(byCost(a, b)).toBe(order);
  });
});
