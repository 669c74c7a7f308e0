import { describe, expect, it } from 'vitest';
import {
  experimentStates,
  experimentsToStart,
  experimentsAtOnce,
  MAX_EXPERIMENTS_AT_ONCE,
  runFinished,
  type RunCarry,
} from '../../src/core/run-order.ts';

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
    [0, 9999, MAX_EXPERIMENTS_AT_ONCE],
  ])('-j %i over %i experiments runs %i at once', (j, n, atOnce) => {
    expect(experimentsAtOnce(j, n)).toBe(atOnce);
  });

  it.each<[string, RunCarry, string[], number, boolean, string[]]>([
    ['fills the free places in plan order', done([]), [], 2, false, ['a', 'b']],
    ['skips the running and the finished', done(['a']), ['b'], 2, false, ['c']],
    ['starts nothing when -j are running', done([]), ['a', 'b'], 2, false, []],
    ['starts nothing while draining', done([]), [], 2, true, []],
    ['starts nothing once stopped', done(['a'], true), [], 2, false, []],
  ])('%s', (_, carry, running, atOnce, draining, expected) => {
    expect(experimentsToStart(order, carry, new Set(running), atOnce, draining)).toEqual(expected);
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
