import { describe, expect, it } from 'vitest';
import { SILENCE_FLOOR_MS, silentContenders, type PoolBeat } from '../../src/core/silence.ts';

const NOW = 1_000_000;
const beat = (contender: string, calls: number, agoMs: number, slowestMs?: number): PoolBeat => ({
  contender,
  calls,
  answeredAt: NOW - agoMs,
  ...(slowestMs !== undefined ? { slowestMs } : {}),
});

describe('which contenders do not answer', () => {
  it.each<[string, PoolBeat[], { contender: string; since: number }[]]>([
    ['nothing in flight: quiet, not silent', [beat('a', 0, 120_000)], []],
    ['calls in flight, an answer within the floor', [beat('a', 2, SILENCE_FLOOR_MS - 1)], []],
    [
      'calls in flight, no answer past the floor',
      [beat('a', 2, SILENCE_FLOOR_MS + 1)],
      [{ contender: 'a', since: NOW - SILENCE_FLOOR_MS - 1 }],
    ],
    ['a slow model is given its slowest call', [beat('a', 2, 50_000, 60_000)], []],
    ['… and no more', [beat('a', 2, 61_000, 60_000)], [{ contender: 'a', since: NOW - 61_000 }]],
    [
      'one pool of the contender answered lately: it answers',
      [beat('a', 2, 90_000), beat('a', 1, 1_000)],
      [],
    ],
    [
      'the slowest call of any pool of the contender counts',
      [beat('a', 2, 45_000), beat('a', 0, 1_000_000, 50_000)],
      [],
    ],
    [
      'contenders apart, in order',
      [beat('b', 1, 40_000), beat('a', 1, 35_000), beat('c', 1, 5_000)],
      [
        { contender: 'a', since: NOW - 35_000 },
        { contender: 'b', since: NOW - 40_000 },
      ],
    ],
    ['a pool of an earlier version says nothing of answers', [{ contender: 'a', calls: 3 }], []],
  ])('%s', (_name, beats, want) => {
    expect(silentContenders(beats, NOW).map(({ contender, since }) => ({ contender, since }))).toEqual(want);
  });
});
