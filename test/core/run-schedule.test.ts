import { describe, expect, it } from 'vitest';
import {
  experimentStates,
  experimentsToStart,
  laneCount,
  MAX_LANES,
  runFinished,
  type RunCarry,
} from '../../src/core/run-schedule.ts';

const order = ['a', 'b', 'c', 'd'];
const done = (ids: string[], stopped = false): RunCarry => ({
  done: Object.fromEntries(ids.map((id) => [id, { cases: 1, errors: 0 }])),
  ...(stopped ? { stopped } : {}),
});

describe('which experiments run', () => {
  it.each([
    [2, 10, 2],
    [0, 10, 10],
    [0, 0, 1],
    [0, 9999, MAX_LANES],
  ])('-j %i over %i experiments runs %i at once', (j, n, lanes) => {
    expect(laneCount(j, n)).toBe(lanes);
  });

  it.each<[string, RunCarry, string[], number, boolean, string[]]>([
    ['fills the free lanes in plan order', done([]), [], 2, false, ['a', 'b']],
    ['skips the running and the finished', done(['a']), ['b'], 2, false, ['c']],
    ['starts nothing in full lanes', done([]), ['a', 'b'], 2, false, []],
    ['starts nothing while draining', done([]), [], 2, true, []],
    ['starts nothing once stopped', done(['a'], true), [], 2, false, []],
  ])('%s', (_, carry, running, lanes, draining, expected) => {
    expect(experimentsToStart(order, carry, new Set(running), lanes, draining)).toEqual(expected);
  });

  it.each<[string, RunCarry, string[], boolean]>([
    ['all finished', done(order), [], true],
    ['one still running', done(['a', 'b', 'c']), ['d'], false],
    ['one not started', done(['a', 'b', 'c']), [], false],
    ['stopped, nothing running', done(['a'], true), [], true],
    ['stopped, one still running', done(['a'], true), ['b'], false],
  ])('finished when %s: %s', (_, carry, running, finished) => {
    expect(runFinished(order, carry, new Set(running))).toBe(finished);
  });

  it('shows each experiment as pending, running, completed or stopped', () => {
    const carry: RunCarry = {
      done: { a: { cases: 2, errors: 1 }, b: { cases: 1, errors: 0, stopped: true } },
    };
    const states = experimentStates(
      order.map((id) => ({ id, total: 2 })),
      carry,
      new Set(['c']),
    );
    expect(states.map((s) => [s.id, s.state, s.done, s.errors])).toEqual([
      ['a', 'completed', 2, 1],
      ['b', 'stopped', 1, 0],
      ['c', 'running', 0, 0],
      ['d', 'pending', 0, 0],
    ]);
  });
});
