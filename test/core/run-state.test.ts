import { describe, expect, it } from 'vitest';
import { runStateOf, type RunState } from '../../src/core/run-state.ts';

describe("a run's state", () => {
  it.each<[string, string | undefined, 'running' | 'paused' | 'aborted' | undefined, RunState]>([
    ['RUNNING', undefined, undefined, 'running'],
    ['RUNNING', undefined, 'running', 'running'],
    ['RUNNING', undefined, 'paused', 'paused'],
    ['RUNNING', undefined, 'aborted', 'aborted'],
    ['COMPLETED', 'completed', undefined, 'completed'],
    ['COMPLETED', 'aborted', undefined, 'aborted'],
    ['COMPLETED', 'regressed', undefined, 'regressed'],
    ['COMPLETED', undefined, undefined, 'completed'],
    ['CANCELLED', undefined, undefined, 'cancelled'],
    ['TERMINATED', undefined, undefined, 'cancelled'],
    ['FAILED', undefined, undefined, 'failed'],
    ['TIMED_OUT', undefined, undefined, 'failed'],
  ])('%s that ended %s, gate %s: %s', (status, ended, gate, state) => {
    expect(runStateOf(status, ended, gate)).toBe(state);
  });
});
