import { describe, expect, it } from 'vitest';
import { delayLeft } from '../../activities/case-runner.ts';

// A retry's delay counts from the failure, not from when its pool reported it.
describe('delayLeft', () => {
  it.each<[string, { delay?: number; failedAt: number }, number, number]>([
    ['reported at once: the whole delay', { delay: 2, failedAt: 1000 }, 1000, 2],
    ['reported 0.75 s late: the rest', { delay: 2, failedAt: 1000 }, 1750, 1.25],
    ['reported after the delay: none', { delay: 2, failedAt: 1000 }, 4000, 0],
    ['no delay named: 1 s', { failedAt: 1000 }, 1500, 0.5],
  ])('%s', (_, retry, now, left) => {
    expect(delayLeft(retry, now)).toBeCloseTo(left, 9);
  });
});
