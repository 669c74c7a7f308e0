import { describe, expect, it } from 'vitest';
import { contenderKey, type Contender } from '../../src/core/matrix.ts';
import {
  experimentStates,
  experimentsToStart,
  headStartCases,
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

describe('the calls a fresh run starts before Temporal has it', () => {
  const contender = (id: string, limits: string[] = []): Contender => {
    const base = { provider: 'fake', id, effort: 'default', temperature: null, maxTokens: null };
    return { ...base, key: contenderKey(base), model: id, limits };
  };
  const contenders = [contender('fast'), contender('slow'), contender('limited', ['fake'])];
  const datasets = {
    d1: [
      ['d1/a', 'h1'],
      ['d1/b', 'h2'],
      ['d1/c', 'h3'],
    ] as [string, string][],
    d2: [['d2/a', 'h4']] as [string, string][],
  };
  const experiments = [
    { id: 'e1', contender: 0, dataset: 'd1' },
    { id: 'e2', contender: 1, dataset: 'd2' },
    { id: 'e3', contender: 2, dataset: 'd1' },
  ];
  const cases = (parallelism: number, concurrency: number, list = experiments) =>
    headStartCases({ experiments: list, contenders, datasets, parallelism, concurrency }).map(
      (c) => `${c.experimentId} ${c.caseKey} ${c.caseHash} ${c.contender.id}`,
    );

  it.each<[string, number, number, string[]]>([
    ['-j 1 -p 1: the first experiment, its first two cases', 1, 1, ['e1 d1/a h1 fast', 'e1 d1/b h2 fast']],
    [
      '-j 1 -p 2: no more cases than the dataset has',
      2,
      1,
      ['e1 d1/a h1 fast', 'e1 d1/b h2 fast', 'e1 d1/c h3 fast'],
    ],
    [
      '-j 2 -p 1: the first two cases of each of the first two',
      1,
      2,
      ['e1 d1/a h1 fast', 'e1 d1/b h2 fast', 'e2 d2/a h4 slow'],
    ],
    [
      '-j 0 -p 1: every experiment, but none waiting on a rate limit',
      1,
      0,
      ['e1 d1/a h1 fast', 'e1 d1/b h2 fast', 'e2 d2/a h4 slow'],
    ],
  ])('%s', (_, parallelism, concurrency, expected) => {
    expect(cases(parallelism, concurrency)).toEqual(expected);
  });

  it('starts nothing when the experiment first in line waits on a rate limit', () => {
    expect(cases(2, 1, [experiments[2]!, experiments[0]!])).toEqual([]);
  });
});
