import { describe, expect, it } from 'vitest';
import { lease } from '../../src/core/case-queue.ts';
import {
  handleExchange,
  handleRetryReport,
  newExperiment,
  nextStep,
  pauseDelay,
  type Settled,
} from '../../src/core/experiment-state.ts';
import { UNKNOWN_USAGE, type CaseResult } from '../../src/core/results.ts';

const cases: [string, string][] = Array.from({ length: 6 }, (_, i) => [`d/v/${i}`, `h${i}`]);

const result = (index: number, status: CaseResult['status'] = 'scored'): Settled => ({
  index,
  result: {
    experimentId: 'e',
    caseKey: cases[index]![0],
    status,
    score: status === 'error' ? null : 1,
    metrics: {},
    outcomes: {},
    diagnostics: {},
    usage: UNKNOWN_USAGE,
    latency: 0,
    duration: 0,
    startedAt: '',
    finishedAt: '',
    attempts: 1,
  },
});

describe('an exchange between a pool and its experiment', () => {
  it('hands out cases with their keys and hashes, and takes results for the next ones', () => {
    const state = newExperiment(6);
    const first = handleExchange(state, { holder: 'a:1', settled: [], want: 2 }, cases);
    expect(first.answer).toEqual({
      cases: [
        [0, 'd/v/0', 'h0'],
        [1, 'd/v/1', 'h1'],
      ],
    });
    const second = handleExchange(
      state,
      { holder: 'a:1', settled: [result(0), result(1, 'error')], want: 1 },
      cases,
    );
    expect(second.accepted.map((r) => r.caseKey)).toEqual(['d/v/0', 'd/v/1']);
    expect(second.answer.cases).toEqual([[2, 'd/v/2', 'h2']]);
    expect(state.queue).toMatchObject({ done: 2, errors: 1 });
  });

  it('lets a newer attempt of the pool take over, and tells the older one it was superseded', () => {
    const state = newExperiment(6);
    handleExchange(state, { holder: 'a:1', settled: [], want: 3 }, cases);
    const newer = handleExchange(state, { holder: 'a:2', settled: [], want: 2 }, cases);
    // The older pool's leases come back and are served first.
    expect(newer.answer.cases.map(([i]) => i)).toEqual([0, 1]);
    const older = handleExchange(state, { holder: 'a:1', settled: [result(2)], want: 4 }, cases);
    expect(older.answer).toEqual({ cases: [], end: 'superseded' });
    // Its late result still counts: the case was paid for.
    expect(older.accepted).toHaveLength(1);
  });

  it('gives deferred cases back and starts retries for retryable failures', () => {
    const state = newExperiment(6);
    handleExchange(state, { holder: 'a:1', settled: [], want: 3 }, cases);
    const { retries, answer } = handleExchange(
      state,
      {
        holder: 'a:1',
        settled: [
          { index: 0, deferred: 'paused' },
          { index: 1, retry: { delay: 3, error: 'HTTP 429' } },
          // Tried twice already (its command retried it before the run was made): the retries go on from there.
          { index: 2, retry: { delay: 2, error: 'HTTP 503', tried: 2 } },
        ],
        want: 0,
      },
      cases,
    );
    expect(retries).toEqual([
      { index: 1, delay: 3, tried: 1 },
      { index: 2, delay: 2, tried: 2 },
    ]);
    expect(answer.cases).toEqual([]);
    expect(state.queue).toMatchObject({ returned: [0], retrying: [1, 2] });
  });

  it('hands out nothing once the experiment is ending, and says why', () => {
    const state = newExperiment(6);
    state.ending = 'handover';
    const { answer } = handleExchange(state, { holder: 'a:1', settled: [], want: 3 }, cases);
    expect(answer).toEqual({ cases: [], end: 'handover' });
  });
});

describe("a retried case's report to its experiment", () => {
  /** An experiment whose case 1 runs as a retry, case 0 is leased to a pool, and case 2 went back to the pools. */
  const retrying = () => {
    const state = newExperiment(6);
    handleExchange(state, { holder: 'a:1', settled: [], want: 3 }, cases);
    handleExchange(
      state,
      {
        holder: 'a:1',
        settled: [
          { index: 1, retry: { delay: 1, error: 'HTTP 503' } },
          { index: 2, retry: { delay: 1, error: 'HTTP 503' } },
        ],
        want: 0,
      },
      cases,
    );
    state.queue.retrying = [1];
    state.queue.returned = [2];
    return state;
  };
  const settledResult = (index: number, status: CaseResult['status'] = 'scored') => {
    const item = result(index, status);
    return 'result' in item ? item.result : undefined;
  };

  it.each([
    {
      what: 'a check for the case running as a retry',
      report: { index: 1 },
      still: true,
      done: 0,
      retrying: [1],
      returned: [2],
    },
    {
      what: 'its result',
      report: { index: 1, result: settledResult(1) },
      still: true,
      done: 1,
      retrying: [],
      returned: [2],
    },
    {
      what: 'its last try failing',
      report: { index: 1, result: settledResult(1, 'error') },
      still: true,
      done: 1,
      retrying: [],
      returned: [2],
    },
    {
      what: 'a check for a case a pool holds',
      report: { index: 0 },
      still: false,
      done: 0,
      retrying: [1],
      returned: [2],
    },
    {
      what: 'a check for a case gone back to the pools',
      report: { index: 2 },
      still: false,
      done: 0,
      retrying: [1],
      returned: [2],
    },
    {
      // Its last attempt was given up (the workflow handed the case back) while its worker finished the call: the
      // result counts, as the history's readers count it, and the pools do not pay for the case again.
      what: 'a result for a case gone back to the pools',
      report: { index: 2, result: settledResult(2) },
      still: true,
      done: 1,
      retrying: [1],
      returned: [],
    },
  ])('answers $still to $what', ({ report, still, done, retrying: left, returned }) => {
    const state = retrying();
    expect(handleRetryReport(state, report)).toBe(still);
    expect(state.queue.done).toBe(done);
    expect(state.queue.retrying).toEqual(left);
    expect(state.queue.returned).toEqual(returned);
  });

  it('answers false to the next attempt once an earlier one reported the result, which counts once', () => {
    const state = retrying();
    expect(handleRetryReport(state, { index: 1, result: settledResult(1, 'error') })).toBe(true);
    expect(handleRetryReport(state, { index: 1 })).toBe(false);
    expect(handleRetryReport(state, { index: 1, result: settledResult(1) })).toBe(false);
    expect(state.queue).toMatchObject({ done: 1, errors: 1, retrying: [] });
  });
});

describe('the next step after a pool ends', () => {
  const at = (fill: (s: ReturnType<typeof newExperiment>) => void, suggested = false) => {
    const state = newExperiment(4);
    fill(state);
    return nextStep(state, suggested);
  };
  it.each<[string, ReturnType<typeof at>, ReturnType<typeof nextStep>]>([
    ['cases wait: another pool', at(() => undefined), 'pool'],
    ['all done', at((s) => Object.assign(s.queue, { cursor: 4, done: 4 })), 'done'],
    [
      'only retries left: wait for them',
      at((s) => Object.assign(s.queue, { cursor: 4, done: 3, retrying: [3] })),
      'wait',
    ],
    ['stopped by the gate', at((s) => (s.ending = 'stopped')), 'stop'],
    ['history grew: continue as new', at(() => undefined, true), 'continue-as-new'],
    [
      'history grew with a retry running: wait for it first',
      at((s) => Object.assign(s.queue, { cursor: 1, retrying: [0] }), true),
      'wait',
    ],
  ])('%s', (_, step, expected) => {
    expect(step).toBe(expected);
  });

  it.each([
    [1, 2],
    [2, 4],
    [4, 16],
    [5, 30],
    [9, 30],
  ])('waits %i pauses in a row → %i s before the next pool', (pauses, seconds) => {
    expect(pauseDelay(pauses)).toBe(seconds);
  });

  it('leases nothing twice', () => {
    const state = newExperiment(3);
    expect(lease(state.queue, 'a:1', 2)).toEqual([0, 1]);
    expect(lease(state.queue, 'a:1', 2)).toEqual([2]);
  });
});
