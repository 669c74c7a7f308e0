import { describe, expect, it } from 'vitest';
import {
  deliveryStalled,
  FLUSH_BYTES,
  FLUSH_MS,
  gateReportDue,
  nextMove,
  prefetch,
  REPORT_EVERY_MS,
  STALLED_AFTER_MS,
  type PoolView,
} from '../../src/core/pool-pacing.ts';

const view = (fields: Partial<PoolView>): PoolView => ({
  parallelism: 16,
  running: 0,
  buffered: 0,
  unsent: 0,
  oldestUnsentAt: null,
  unsentBytes: 0,
  urgent: false,
  exhausted: false,
  exchanging: false,
  rate: 0,
  now: 10_000,
  ...fields,
});

describe("a pool's next move", () => {
  it.each<[string, Partial<PoolView>, ReturnType<typeof nextMove>]>([
    ['a fresh pool asks for its -p cases and as many spare', {}, { exchange: true, want: 32 }],
    ['one exchange at a time', { exchanging: true, unsent: 5, oldestUnsentAt: 0 }, { idle: true }],
    ['a full buffer waits', { running: 16, buffered: 16 }, { idle: true }],
    [
      'half its spare cases left: ask for the rest',
      { running: 16, buffered: 8 },
      { exchange: true, want: 8 },
    ],
    [
      'a fresh result waits for its flush time',
      { running: 16, buffered: 16, unsent: 1, oldestUnsentAt: 9_900 },
      { at: 9_900 + FLUSH_MS },
    ],
    [
      'an old result is flushed',
      { running: 16, buffered: 16, unsent: 1, oldestUnsentAt: 10_000 - FLUSH_MS },
      { exchange: true, want: 0 },
    ],
    [
      'many bytes are flushed at once',
      { running: 16, buffered: 16, unsent: 9, oldestUnsentAt: 9_999, unsentBytes: FLUSH_BYTES },
      { exchange: true, want: 0 },
    ],
    [
      'a failure is flushed at once',
      { running: 16, buffered: 16, unsent: 1, oldestUnsentAt: 9_999, urgent: true },
      { exchange: true, want: 0 },
    ],
    [
      'nothing running, nothing more to come: report the unsent before it ends',
      { exhausted: true, unsent: 1, oldestUnsentAt: 9_999 },
      { exchange: true, want: 0 },
    ],
    ['exhausted and all reported: end', { exhausted: true }, { end: true }],
    ['exhausted with calls running: wait for them', { exhausted: true, running: 3 }, { idle: true }],
    ['a fast pool leases a quarter second ahead', { rate: 1000 }, { exchange: true, want: 266 }],
  ])('%s', (_, fields, move) => {
    expect(nextMove(view(fields))).toEqual(move);
  });

  it.each([
    [1, 0, 16],
    [50, 0, 50],
    [16, 400, 100],
    [16, 10_000, 500],
  ])('prefetch at -p %i and %i cases/s is %i', (parallelism, rate, spare) => {
    expect(prefetch(parallelism, rate)).toBe(spare);
  });
});

describe('telling the gate', () => {
  it.each<[string, { count: number; failures: number; since: number | null }, boolean, number, boolean]>([
    ['nothing to tell', { count: 0, failures: 0, since: null }, false, 5000, false],
    ['successes wait up to a second', { count: 3, failures: 0, since: 4500 }, false, 5000, false],
    [
      'successes go after a second',
      { count: 3, failures: 0, since: 5000 - REPORT_EVERY_MS },
      false,
      5000,
      true,
    ],
    ['a failure goes at once', { count: 1, failures: 1, since: 4999 }, false, 5000, true],
    ['one report at a time', { count: 1, failures: 1, since: 0 }, true, 5000, false],
  ])('%s', (_, pending, reporting, now, due) => {
    expect(gateReportDue(pending, reporting, now)).toBe(due);
  });
});

describe('a stalled delivery', () => {
  it.each<[string, number | null, number, boolean]>([
    ['no exchange under way', null, 10_000, false],
    ['an exchange just sent', 10_000, 10_000, false],
    ['an exchange waiting half a second', 10_000, 10_500, false],
    ['an exchange waiting two seconds', 10_000, 10_000 + STALLED_AFTER_MS, true],
    ['an exchange waiting a minute', 10_000, 70_000, true],
  ])('%s: new calls held: %s', (_, since, now, held) => {
    expect(deliveryStalled(since, now)).toBe(held);
  });
});
