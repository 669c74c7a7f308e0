import { describe, expect, it } from 'vitest';
import {
  answerPause,
  closeVendor,
  describeFailures,
  endCall,
  grantSlot,
  hasRoom,
  newGate,
  PAUSE_STREAK,
  queueWaitMs,
  recordOutcome,
  renewCalls,
  SCORER_PAUSE,
  shouldAbort,
  type Failure,
  type GateState,
  type SlotAnswer,
} from '../../src/core/coordinator.ts';
import { LEASE_MS, RENEW_MS } from '../../src/core/concurrency.ts';
import { outcomeOf, transportErrorResult } from '../../src/core/outcomes.ts';

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

describe('the pause after the scorer throws on replies', () => {
  const threw = (caseKey = 'd/c'): Failure => ({
    ...fail(caseKey),
    error: 'the scorer failed: boom',
    scorer: true,
  });

  it.each<[string, { total: number } | undefined, (Failure | undefined)[], GateState['state']]>([
    ['two throws do not pause', undefined, [threw(), threw()], 'running'],
    [
      'the third pauses, successes between or not',
      undefined,
      [threw(), undefined, threw(), undefined, threw()],
      'paused',
    ],
    [
      'with abort_after too: the scorer is the suite’s bug',
      { total: 100 },
      [threw(), threw(), threw()],
      'paused',
    ],
    ['abort_after reached first aborts', { total: 2 }, [threw(), threw()], 'aborted'],
    [
      'other failures count toward the streak, not this',
      undefined,
      [fail(), fail(), threw(), fail()],
      'running',
    ],
  ])('%s', (_name, abortAfter, outcomes, state) => {
    const gate = newGate({}, abortAfter);
    for (const outcome of outcomes) recordOutcome(gate, outcome);
    expect(gate.state).toBe(state);
  });

  it.each([
    ['the scorer failed: boom', true],
    ['HTTP 400: bad request', false],
    ['the adapter failed: the scorer failed: nested', false],
    ['judge failure: toy/judge: the judge reply holds no JSON object', false],
  ])('a result whose error is %j is the scorer’s: %s', (error, scorer) => {
    const result = {
      ...transportErrorResult('e', 'd/c', error, '2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z'),
    };
    expect(outcomeOf(result, 'm', 'd')?.scorer ?? false).toBe(scorer);
  });

  it('going on after it arms another 100 throws; stopping aborts', () => {
    const gate = newGate({});
    for (let i = 0; i < SCORER_PAUSE; i++) recordOutcome(gate, threw());
    answerPause(gate, true);
    for (let i = 0; i < PAUSE_STREAK - 1; i++) recordOutcome(gate, threw(`d/${i}`));
    expect(gate.state).toBe('running');
    recordOutcome(gate, threw());
    expect(gate.state).toBe('paused');
    answerPause(gate, false);
    expect(gate.state).toBe('aborted');
  });
});

describe('grantSlot: places in flight (max_concurrency)', () => {
  const ask = (gate: GateState, holder: string, keys = ['solo'], now = 0) =>
    grantSlot(gate, { keys, vendor: 'solo', holder }, now);

  it.each([
    [
      'max 1: the first call leases, the second queues',
      1,
      ['a', 'b'],
      [{ startAt: 0, leased: true }, { queued: true }],
    ],
    [
      'max 2: two lease, the third queues',
      2,
      ['a', 'b', 'c'],
      [{ startAt: 0, leased: true }, { startAt: 0, leased: true }, { queued: true }],
    ],
  ])('%s', (_name, max, holders, answers) => {
    const gate = newGate({}, undefined, { solo: max });
    expect(holders.map((h) => ask(gate, h))).toEqual(answers);
  });

  it('a call that ends gives its place to the next one; hasRoom says when', () => {
    const gate = newGate({}, undefined, { solo: 1 });
    ask(gate, 'a');
    expect(hasRoom(gate, ['solo'], 0)).toBe(false);
    expect(ask(gate, 'b')).toEqual({ queued: true });
    endCall(gate, 'a');
    expect(hasRoom(gate, ['solo'], 0)).toBe(true);
    expect(ask(gate, 'b')).toEqual({ startAt: 0, leased: true });
    endCall(gate, 'a'); // twice does nothing
    expect(ask(gate, 'c')).toEqual({ queued: true });
  });

  it('a lease nobody gave back (a worker died mid-call) lapses after LEASE_MS', () => {
    const gate = newGate({}, undefined, { solo: 1 });
    ask(gate, 'lost', ['solo'], 0);
    expect(ask(gate, 'b', ['solo'], LEASE_MS - 1)).toEqual({ queued: true });
    expect(ask(gate, 'b', ['solo'], LEASE_MS)).toEqual({ startAt: LEASE_MS, leased: true });
  });

  it('a lease lapses within seconds, not minutes, and renewing keeps it as long as the call runs', () => {
    expect(LEASE_MS).toBeLessThanOrEqual(10_000);
    expect(RENEW_MS * 3).toBeLessThanOrEqual(LEASE_MS);
    const gate = newGate({}, undefined, { solo: 1 });
    ask(gate, 'long', ['solo'], 0);
    for (let t = RENEW_MS; t < 5 * LEASE_MS; t += RENEW_MS) {
      renewCalls(gate, ['long'], t);
      expect(ask(gate, 'b', ['solo'], t), `at ${t} ms`).toEqual({ queued: true });
    }
    const last = 5 * LEASE_MS - RENEW_MS;
    expect(ask(gate, 'b', ['solo'], last + LEASE_MS)).toEqual({ startAt: last + LEASE_MS, leased: true });
    renewCalls(gate, ['long'], last + LEASE_MS); // a lapsed lease stays lapsed
    expect(gate.inFlight!.leases.solo).toEqual({ b: last + 2 * LEASE_MS });
  });

  it.each([
    ['no lease held: the longest wait', [], 0, 5000],
    ['a lease lapsing in 3 s: until just after it', ['a'], LEASE_MS - 3000, 3001],
    ['a lease that lapsed: at once', ['a'], LEASE_MS + 10, 1],
  ])('queueWaitMs with %s', (_name, holders, now, wait) => {
    const gate = newGate({}, undefined, { solo: 1 });
    for (const h of holders) ask(gate, h, ['solo'], 0);
    expect(queueWaitMs(gate, ['solo'], now, 5000)).toBe(wait);
  });

  it('time queued for a place is waited on the counted keys, once the place is taken', () => {
    const gate = newGate({ solo: { burst: 10, perMinute: 60 } }, undefined, { solo: 1 });
    ask(gate, 'a', ['solo', 'other'], 0);
    expect(ask(gate, 'b', ['solo', 'other'], 1000)).toEqual({ queued: true });
    expect(ask(gate, 'b', ['solo', 'other'], 6000)).toEqual({ queued: true });
    expect(gate.waited).toEqual({ solo: 0 });
    endCall(gate, 'a');
    expect(ask(gate, 'b', ['solo', 'other'], 7500)).toEqual({ startAt: 7500, leased: true });
    expect(gate.waited).toEqual({ solo: 6.5 });
    expect(gate.inFlight!.queued).toEqual({});
  });

  it('forgets a queued holder that stopped asking (its run paused, its worker died)', () => {
    const gate = newGate({}, undefined, { solo: 1 });
    ask(gate, 'a', ['solo'], 0);
    ask(gate, 'gone', ['solo'], 0);
    renewCalls(gate, ['a'], 55_000);
    expect(ask(gate, 'b', ['solo'], 60_001)).toEqual({ queued: true });
    expect(Object.keys(gate.inFlight!.queued!)).toEqual(['b']);
  });

  it('leases every counted key or none, and a queued call takes no rate-limit slot', () => {
    const gate = newGate({ solo: { burst: 1, perMinute: 60 } }, undefined, { solo: 1, 'solo:m': 5 });
    expect(ask(gate, 'a', ['solo', 'solo:m'])).toEqual({ startAt: 0, leased: true });
    expect(ask(gate, 'b', ['solo', 'solo:m'])).toEqual({ queued: true });
    expect(gate.inFlight!.leases['solo:m']).toEqual({ a: LEASE_MS });
    expect(gate.slots.solo!.granted).toBe(1);
  });

  it('keys no max counts, a call without a holder, and a gate without max_concurrency never queue', () => {
    const gate = newGate({}, undefined, { solo: 1 });
    ask(gate, 'a');
    expect(ask(gate, 'b', ['other'])).toEqual({ startAt: 0 });
    expect(grantSlot(gate, { keys: ['solo'], vendor: 'solo' }, 0)).toEqual({ startAt: 0 });
    expect(ask(newGate({}), 'x')).toEqual({ startAt: 0 });
  });

  it('a paused or stopped run answers before any lease is taken', () => {
    const gate = newGate({}, undefined, { solo: 1 });
    gate.state = 'paused';
    expect(ask(gate, 'a')).toEqual({ paused: true });
    expect(gate.inFlight!.leases).toEqual({});
  });
});
