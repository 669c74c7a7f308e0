import { describe, expect, it } from 'vitest';
import { tokenBucketExcess } from './token-bucket.ts';

describe('tokenBucketExcess', () => {
  it.for([
    { name: 'no calls', times: [], excess: 0 },
    { name: 'a burst of 5 at once', times: [0, 0, 0, 0, 0], excess: 0 },
    { name: 'a burst of 6 at once', times: [0, 0, 0, 0, 0, 0], excess: 1 },
    { name: 'burst, then one a second', times: [0, 0, 0, 0, 0, 1000, 2000, 3000], excess: 0 },
    { name: 'burst, then one 0.5 s in', times: [0, 0, 0, 0, 0, 500], excess: 1 },
    {
      name: 'a second burst after 2 s refilled 2 slots',
      times: [0, 0, 0, 0, 0, 2000, 2000, 2000],
      excess: 1,
    },
  ])('$name: $excess', ({ times, excess }) => {
    expect(tokenBucketExcess(times, 5, 1 / 1000)).toBe(excess);
  });
});
