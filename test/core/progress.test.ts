import { describe, expect, it } from 'vitest';
import { neverBackwards, type ExperimentStatus, type RunProgress } from '../../src/core/progress.ts';

const run = (runId: string, ...experiments: Partial<ExperimentStatus>[]): RunProgress => ({
  runId,
  experiments: experiments.map((e, i) => ({
    id: `e${i}`,
    total: 72,
    done: 0,
    errors: 0,
    state: 'running',
    ...e,
  })),
});

describe('progress shown never goes backwards', () => {
  it.each<[string, RunProgress | undefined, RunProgress, RunProgress]>([
    ['nothing shown yet', undefined, run('r', { done: 3 }), run('r', { done: 3 })],
    ['more done', run('r', { done: 3 }), run('r', { done: 5 }), run('r', { done: 5 })],
    [
      'a query that counts less (a server kill: 48 became 0)',
      run('r', { done: 48, errors: 2 }),
      run('r', { done: 0, errors: 0, state: 'pending' }),
      run('r', { done: 48, errors: 2, state: 'running' }),
    ],
    [
      'each experiment on its own',
      run('r', { done: 10 }, { done: 4 }),
      run('r', { done: 9 }, { done: 6 }),
      run('r', { done: 10 }, { done: 6 }),
    ],
    ['another run starts afresh', run('r', { done: 48 }), run('s', { done: 1 }), run('s', { done: 1 })],
  ])('%s', (_, shown, next, expected) => {
    expect(neverBackwards(shown, next)).toEqual(expected);
  });
});
