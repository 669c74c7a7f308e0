import { describe, expect, it } from 'vitest';
import { Budget } from '../../activities/budget.ts';

/** Runs pieces of the given weights on one budget, each until released by hand; records which started. */
function pieces(size: number, weights: number[]) {
  const budget = new Budget(size);
  const started: number[] = [];
  const release: (() => void)[] = [];
  const done = weights.map((weight, i) =>
    budget.run(weight, () => {
      started.push(i);
      return new Promise<number>((resolve) => (release[i] = () => resolve(i)));
    }),
  );
  return { started, release, done };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a budget of memory shared by weighted work', () => {
  it.each<[string, number, number[], number[]]>([
    ['starts all that fit at once', 100, [30, 30, 40], [0, 1, 2]],
    ['holds back what does not fit', 100, [60, 30, 20], [0, 1]],
    ['runs a piece larger than the budget alone', 100, [250, 10], [0]],
    ['keeps order: a small piece waits behind a large one', 100, [60, 50, 10], [0]],
  ])('%s', async (_, size, weights, first) => {
    const { started } = pieces(size, weights);
    await settle();
    expect(started).toEqual(first);
  });

  it('starts the next pieces as weight comes back, and gives each its own result', async () => {
    const { started, release, done } = pieces(100, [60, 50, 10, 250]);
    await settle();
    expect(started).toEqual([0]);
    release[0]!();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    release[1]!();
    release[2]!();
    await settle();
    expect(started).toEqual([0, 1, 2, 3]);
    release[3]!();
    expect(await Promise.all(done)).toEqual([0, 1, 2, 3]);
  });

  it('gives the weight back when a piece fails', async () => {
    const budget = new Budget(10);
    await expect(budget.run(10, () => Promise.reject(new Error('tracker down')))).rejects.toThrow(
      'tracker down',
    );
    expect(await budget.run(10, () => Promise.resolve('next'))).toBe('next');
  });
});
