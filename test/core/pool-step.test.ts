import { describe, expect, it } from 'vitest';
import type { Settled } from '../../src/core/experiment-state.ts';
import { FLUSH_MS } from '../../src/core/pool-pacing.ts';
import {
  newPool,
  poolStep,
  type LeasedCase,
  type PoolEffect,
  type PoolNews,
  type PoolState,
} from '../../src/core/pool-step.ts';
import { UNKNOWN_USAGE, type CaseResult } from '../../src/core/results.ts';

const leased = (index: number): LeasedCase => [index, `d/v/${index}`, `h${index}`];

const result = (index: number, status: CaseResult['status'] = 'scored'): Settled => ({
  index,
  result: {
    experimentId: 'e',
    caseKey: `d/v/${index}`,
    status,
    score: status === 'error' ? null : 1,
    metrics: {},
    outcomes: {},
    diagnostics: {},
    ...(status === 'error' ? { error: 'boom' } : {}),
    usage: UNKNOWN_USAGE,
    latency: 0,
    duration: 0,
    startedAt: '',
    finishedAt: '',
    attempts: 1,
  },
});
const failure = (index: number) => ({ contender: 'c', dataset: 'd', caseKey: `d/v/${index}`, error: 'boom' });
const retry = (index: number): Settled => ({ index, retry: { delay: 1, error: '503', tried: 1 } });

/** A pool of `-p` p with cases 0…first-1 leased to it; `more`: the experiment has more to hand out. */
const pool = (p: number, first: number, options: { more?: boolean; retried?: boolean } = {}): PoolState =>
  newPool({
    parallelism: p,
    contender: 'c',
    dataset: 'd',
    first: Array.from({ length: first }, (_, i) => leased(i)),
    more: options.more ?? false,
    retried: options.retried ?? false,
  });

/** News at a time: `[ms, news]`, or news at the time of the step before (1,000 at first). */
type Step = PoolNews | [number, PoolNews];

/** Feeds the steps to the pool in order; returns the last step's effects. */
function play(state: PoolState, steps: Step[]): PoolEffect[] {
  let now = 1000;
  let effects: PoolEffect[] = [];
  for (const step of steps) {
    const [at, news] = Array.isArray(step) ? step : [now, step];
    now = at;
    effects = poolStep(state, { ...news, now });
  }
  return effects;
}

const ready: PoolNews = { ready: true };
const call = (index: number): PoolEffect => ({ call: leased(index) });

describe("a pool's step", () => {
  it.each<[string, () => PoolState, Step[], PoolEffect[]]>([
    [
      'it does nothing until the attempt before it on this worker is quiet',
      () => pool(2, 4),
      [{ tick: true }],
      [],
    ],
    [
      'ready, it starts -p calls from its first lease and asks for more while its spare cases run low',
      () => pool(2, 4, { more: true }),
      [ready],
      [call(0), call(1), { exchange: { settled: [], want: 14 } }],
    ],
    [
      'a retried attempt does not trust its first lease: it asks for its own',
      () => pool(2, 4, { more: true, retried: true }),
      [ready],
      [{ exchange: { settled: [], want: 18 } }],
    ],
    [
      'a success waits up to FLUSH_MS to be reported, so reports batch',
      () => pool(1, 2),
      [ready, [1000, { called: result(0) }]],
      [call(1), { wakeAt: 1000 + FLUSH_MS }],
    ],
    [
      'after FLUSH_MS the finished cases are exchanged',
      () => pool(1, 2),
      [ready, [1000, { called: result(0) }], [1000 + FLUSH_MS, { tick: true }]],
      [{ exchange: { settled: [result(0)], want: 0 } }, { wakeAt: 2000 }],
    ],
    [
      'a failure holds new calls until the gate answers, and goes to the experiment at once',
      () => pool(1, 3),
      [ready, { called: result(0, 'error') }],
      [{ tellGate: [failure(0)] }, { exchange: { settled: [result(0, 'error')], want: 0 } }],
    ],
    [
      'the gate answers running: the held calls start',
      () => pool(1, 3),
      [ready, { called: result(0, 'error') }, { gate: 'running' }],
      [call(1)],
    ],
    [
      'a retry goes to the experiment at once',
      () => pool(1, 3),
      [ready, { called: retry(0) }],
      [call(1), { exchange: { settled: [retry(0)], want: 0 } }],
    ],
    [
      'successes reach the gate within a second',
      () => pool(1, 3),
      [
        ready,
        [1000, { called: result(0) }],
        [1250, { tick: true }],
        [1300, { leased: { cases: [] } }],
        [2000, { tick: true }],
      ],
      [{ tellGate: [null] }],
    ],
    [
      'one exchange at a time: a case finished meanwhile waits for the answer',
      () => pool(2, 3),
      [ready, { called: retry(0) }, { called: retry(1) }],
      [],
    ],
    [
      'an exchange unanswered for a second holds new calls: they could finish unrecorded',
      () => pool(1, 3),
      [ready, [1000, { called: retry(0) }], [2000, { called: result(1) }]],
      [{ wakeAt: 3000 }],
    ],
    [
      'the gate paused: the leased cases go back by exchange',
      () => pool(1, 3),
      [ready, { called: result(0, 'error') }, { leased: { cases: [] } }, { gate: 'paused' }],
      [
        {
          exchange: {
            settled: [
              { index: 1, deferred: 'paused' },
              { index: 2, deferred: 'paused' },
            ],
            want: 0,
          },
        },
      ],
    ],
    [
      'the experiment says end: the leased cases go back at once',
      () => pool(1, 3, { more: true }),
      [ready, { leased: { cases: [], end: 'handover' } }],
      [
        {
          exchange: {
            settled: [
              { index: 1, deferred: 'stopped' },
              { index: 2, deferred: 'stopped' },
            ],
            want: 0,
          },
        },
      ],
    ],
    [
      'a call the gate deferred hands the rest back',
      () => pool(1, 3),
      [ready, { called: { index: 0, deferred: 'stopped' } }],
      [
        {
          exchange: {
            settled: [
              { index: 0, deferred: 'stopped' },
              { index: 1, deferred: 'stopped' },
              { index: 2, deferred: 'stopped' },
            ],
            want: 0,
          },
        },
      ],
    ],
    [
      'end only once the outbox is empty and the gate told: first the gate',
      () => pool(1, 1),
      [ready, { called: result(0) }, { leased: { cases: [] } }],
      [{ tellGate: [null] }],
    ],
    [
      'end only once the outbox is empty and the gate told: then it ends',
      () => pool(1, 1),
      [ready, { called: result(0) }, { leased: { cases: [] } }, { gate: 'running' }],
      [{ end: 'drained' }],
    ],
    [
      'it ends with the reason it was given',
      () => pool(1, 1),
      [ready, { called: { index: 0, deferred: 'paused' } }, { leased: { cases: [] } }],
      [{ end: 'paused' }],
    ],
    [
      'a case this worker cannot run hands the rest back, and waits for the calls in flight',
      () => pool(2, 3),
      [ready, { called: { index: 0, deferred: 'paused' }, declined: 'no case d/v/0' }],
      [
        {
          exchange: {
            settled: [
              { index: 0, deferred: 'paused' },
              { index: 2, deferred: 'paused' },
            ],
            want: 0,
          },
        },
      ],
    ],
    [
      'having handed back what it cannot run, it declines rather than ends: its next attempt may go elsewhere',
      () => pool(1, 2),
      [
        ready,
        { called: { index: 0, deferred: 'paused' }, declined: 'no case d/v/0' },
        { leased: { cases: [] } },
      ],
      [{ decline: 'no case d/v/0' }],
    ],
    [
      'a decline waits for the call still in flight to be reported',
      () => pool(2, 2),
      [
        ready,
        { called: { index: 0, deferred: 'paused' }, declined: 'no case d/v/0' },
        { leased: { cases: [] } },
      ],
      [],
    ],
    [
      'exchange failure fails the pool: Temporal runs it again',
      () => pool(1, 1),
      [ready, { called: retry(0) }, { exchangeFailed: new Error('no') }],
      [{ fail: new Error('no') }],
    ],
    [
      'after it ended, news changes nothing',
      () => pool(1, 1),
      [ready, { called: retry(0) }, { exchangeFailed: new Error('no') }, { leased: { cases: [] } }],
      [],
    ],
    [
      'drain: it starts no call and reports the calls in flight',
      () => pool(2, 4),
      [ready, { draining: true }, { called: result(0) }],
      [{ wakeAt: 1000 + FLUSH_MS }],
    ],
    [
      'drain: once all is reported it says it is quiet, and does not end',
      () => pool(1, 2),
      [ready, { draining: true }, { called: retry(0) }, { leased: { cases: [] } }],
      [{ quiet: true }],
    ],
    [
      'drain: quiet, it waits for the cancel, whatever else comes',
      () => pool(1, 2),
      [ready, { draining: true }, { called: retry(0) }, { leased: { cases: [] } }, { gate: 'paused' }],
      [],
    ],
    [
      'drain: then the cancel lets it go',
      () => pool(1, 2),
      [
        ready,
        { draining: true },
        { called: retry(0) },
        { leased: { cases: [] } },
        { cancelled: { shutDown: false } },
      ],
      [{ cancel: 'the worker is stopping' }],
    ],
    [
      'cancelled: a call in flight is still reported before it lets go',
      () => pool(2, 4),
      [ready, { cancelled: { shutDown: false } }, { called: result(0) }],
      [{ wakeAt: 1000 + FLUSH_MS }],
    ],
    [
      'cancelled: reported, it lets go',
      () => pool(1, 4),
      [ready, { cancelled: { shutDown: false } }, { called: retry(0) }, { leased: { cases: [] } }],
      [{ cancel: 'the worker is stopping' }],
    ],
    [
      'cancelled before the attempt before it is quiet: it lets go at once',
      () => pool(2, 4),
      [{ cancelled: { shutDown: false } }],
      [{ cancel: 'the worker is stopping' }],
    ],
    [
      'the worker shut down without draining: no call runs, it lets go with its results unsent',
      () => pool(1, 1),
      [ready, { called: result(0) }, { cancelled: { shutDown: true } }],
      [{ cancel: 'the worker is stopping' }],
    ],
    [
      'handed over: it starts no call and reports what it finished',
      () => pool(1, 4),
      [ready, { handedOver: true }, { called: retry(0) }],
      [{ exchange: { settled: [retry(0)], want: 0 } }],
    ],
    [
      'handed over and quiet: cancelled, for its next attempt',
      () => pool(1, 4),
      [ready, { handedOver: true }, { called: retry(0) }, { leased: { cases: [] } }],
      [{ cancel: 'handed over to its next attempt' }],
    ],
    [
      'handed over before it was ready: it still waits for the attempt before it',
      () => pool(1, 4),
      [{ handedOver: true }],
      [],
    ],
  ])('%s', (_, make, steps, expected) => {
    expect(play(make(), steps)).toEqual(expected);
  });

  it('an exchange that failed keeps its cases for the next one', () => {
    const state = pool(1, 1);
    play(state, [ready, { called: retry(0) }, { exchangeFailed: new Error('no') }]);
    expect(state.outbox).toEqual([retry(0)]);
  });
});
