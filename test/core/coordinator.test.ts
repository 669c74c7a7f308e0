import { describe, expect, it } from 'vitest';
import {
  answerPause,
  closeVendor,
  describeFailures,
  grantSlot,
  newGate,
  PAUSE_STREAK,
  recordOutcome,
  shouldAbort,
  type Failure,
  type SlotAnswer,
} from '../../src/core/coordinator.ts';

const startOf = (a: SlotAnswer) => ('startAt' in a ? a.startAt : NaN);
const fail = (caseKey = 'd/c', contender = 'm', dataset = 'd'): Failure => ({
  contender,
  dataset,
  caseKey,
  error: 'boom',
});

describe('grantSlot: rate limits (S7)', () => {
  it.each([
    [
      'burst 5, 120/min: five at once, then every 500 ms',
      { burst: 5, perMinute: 120 },
      8,
      [0, 0, 0, 0, 0, 500, 1000, 1500],
    ],
    ['burst 0: evenly spaced from the first interval', { burst: 0, perMinute: 60 }, 3, [1000, 2000, 3000]],
    ['a large burst never waits', { burst: 100, perMinute: 1 }, 4, [0, 0, 0, 0]],
  ])('%s', (_name, limit, calls, starts) => {
    const gate = newGate({ k: limit });
    const got = Array.from({ length: calls }, () =>
      startOf(grantSlot(gate, { keys: ['k'], vendor: 'v' }, 0)),
    );
    expect(got).toEqual(starts);
  });

  it('admits burst + 60 calls in 30 s at burst 5 and 120 per minute', () => {
    const gate = newGate({ k: { burst: 5, perMinute: 120 } });
    let admitted = 0;
    for (let i = 0; i < 200; i++)
      if (startOf(grantSlot(gate, { keys: ['k'], vendor: 'v' }, 0)) < 30_000) admitted++;
    expect(admitted).toBeGreaterThanOrEqual(5 + 57);
    expect(admitted).toBeLessThanOrEqual(5 + 63);
  });

  it('a call waits on every key that matches it, and uses a slot of each', () => {
    const gate = newGate({ provider: { burst: 1, perMinute: 60 }, model: { burst: 0, perMinute: 30 } });
    const a = grantSlot(gate, { keys: ['provider', 'model'], vendor: 'v' }, 0);
    const b = grantSlot(gate, { keys: ['provider'], vendor: 'v' }, 0);
    expect(startOf(a)).toBe(2000);
    // The provider's burst slot went to `a`; its spacing clock started at the first call.
    expect(startOf(b)).toBe(1000);
    expect(startOf(grantSlot(gate, { keys: ['model'], vendor: 'v' }, 0))).toBe(4000);
  });

  it('keys without a limit do not delay', () => {
    const gate = newGate({});
    expect(startOf(grantSlot(gate, { keys: ['nothing'], vendor: 'v' }, 42))).toBe(42);
  });

  it('time already passed is not waited again', () => {
    const gate = newGate({ k: { burst: 0, perMinute: 60 } });
    grantSlot(gate, { keys: ['k'], vendor: 'v' }, 0);
    expect(startOf(grantSlot(gate, { keys: ['k'], vendor: 'v' }, 10_000))).toBe(10_000);
  });
});

describe('closeVendor: back-off for every call of the run (S8)', () => {
  it.each([
    ['a closed vendor delays its calls', 'v', 5000],
    ['another vendor is not delayed', 'w', 0],
  ])('%s', (_name, vendor, start) => {
    const gate = newGate({});
    closeVendor(gate, 'v', 5000);
    expect(startOf(grantSlot(gate, { keys: [], vendor }, 0))).toBe(start);
  });

  it.each([
    ['a closed model delays its own calls', 'v', 'v:m1', 5000],
    ['its neighbour on the same vendor goes on', 'v', 'v:m2', 0],
    ['a closed vendor delays every model', 'v', 'v:m3', 5000],
  ])('%s', (name, vendor, model, start) => {
    const gate = newGate({});
    closeVendor(gate, name.startsWith('a closed vendor') ? 'v' : 'v:m1', 5000);
    expect(startOf(grantSlot(gate, { keys: [], vendor, model }, 0))).toBe(start);
  });

  it('keeps the later of two windows', () => {
    const gate = newGate({});
    closeVendor(gate, 'v', 8000);
    closeVendor(gate, 'v', 2000);
    expect(gate.closedUntil.v).toBe(8000);
  });
});

describe('shouldAbort (S10)', () => {
  it.each([
    [{ total: 3 }, 2, 10, false],
    [{ total: 3 }, 3, 100, true],
    [{ total: 3, percent: 50 }, 3, 10, false],
    [{ total: 3, percent: 50 }, 5, 10, true],
    [undefined, 1000, 1000, false],
  ])('abort_after %j with %i errors of %i finished → %s', (abortAfter, errors, finished, expected) => {
    expect(shouldAbort({ ...(abortAfter ? { abortAfter } : {}), errors, finished })).toBe(expected);
  });

  it('aborts the run: calls in flight are told to stop, nothing new starts', () => {
    const gate = newGate({}, { total: 2 });
    recordOutcome(gate, fail());
    expect(gate.state).toBe('running');
    recordOutcome(gate, fail());
    expect(gate.state).toBe('aborted');
    expect(grantSlot(gate, { keys: [], vendor: 'v' }, 0)).toEqual({ stopped: true });
  });

  it('never pauses a run that has abort_after', () => {
    const gate = newGate({}, { total: 10_000 });
    for (let i = 0; i < PAUSE_STREAK * 2; i++) recordOutcome(gate, fail());
    expect(gate.state).toBe('running');
  });
});

describe('the pause after a streak of failures (S11)', () => {
  it('pauses after exactly 100 failures in a row; a success resets the streak', () => {
    const gate = newGate({});
    for (let i = 0; i < PAUSE_STREAK - 1; i++) recordOutcome(gate, fail());
    recordOutcome(gate, undefined);
    for (let i = 0; i < PAUSE_STREAK - 1; i++) recordOutcome(gate, fail());
    expect(gate.state).toBe('running');
    recordOutcome(gate, fail());
    expect(gate.state).toBe('paused');
    expect(grantSlot(gate, { keys: [], vendor: 'v' }, 0)).toEqual({ paused: true });
  });

  it.each([
    ['going on arms another 100', true, 'running'],
    ['stopping aborts', false, 'aborted'],
  ])('%s', (_name, goOn, state) => {
    const gate = newGate({});
    for (let i = 0; i < PAUSE_STREAK; i++) recordOutcome(gate, fail());
    answerPause(gate, goOn);
    expect(gate.state).toBe(state);
    if (goOn) {
      for (let i = 0; i < PAUSE_STREAK - 1; i++) recordOutcome(gate, fail());
      expect(gate.state).toBe('running');
      recordOutcome(gate, fail());
      expect(gate.state).toBe('paused');
    }
  });

  it('names the affected contenders, datasets and cases, or all of them', () => {
    const some = describeFailures([fail('d/1', 'a', 'd'), fail('d/2', 'a', 'd')], {
      contenders: 2,
      datasets: 1,
    });
    expect(some).toEqual({
      messages: ['boom'],
      contenders: ['a'],
      datasets: 'all of them',
      cases: ['d/1', 'd/2'],
    });
  });
});
