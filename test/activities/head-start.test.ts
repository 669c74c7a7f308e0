import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { GateClient } from '../../activities/gated-model.ts';
import { HeadStart } from '../../activities/head-start.ts';
import { EchoAdapter, FakeProvider } from '../../src/api/testing.ts';
import { Scorer } from '../../src/api/scorer.ts';
import type { Case, Metric, Reply, Score } from '../../src/api/types.ts';
import { contenderKey, type Contender } from '../../src/core/matrix.ts';
import type { SlotAnswer } from '../../src/core/coordinator.ts';
import { MAX_ATTEMPTS } from '../../src/core/retry.ts';
import type { HeadStartCase } from '../../src/core/run-schedule.ts';
import { ProviderRegistry } from '../../src/providers/registry.ts';

// The calls a compare starts before its run is made keep each experiment's lanes full until its pool takes one of
// them over, and start no more once a call failed or the command was interrupted. Run against a provider whose every
// call takes CALL_MS, with no Temporal: the head start needs none until a pool takes its calls over.

const CALL_MS = 100;

class Exact extends Scorer {
  metrics(): Metric[] {
    return [{ name: 'exact', description: 'same text', primary: true }];
  }
  call(kase: Case, reply: Reply): Score {
    const same = kase.expected === reply.output ? 1 : 0;
    return { value: same, metrics: { exact: same } };
  }
}

/**
 * A fake whose calls take CALL_MS, keeping which case each was for and when it started; the first `refuse[case]`
 * calls of a case are answered with a 429 asking to wait `retryAfter` seconds.
 */
class Timed extends FakeProvider {
  readonly started: string[] = [];
  readonly startedAt: number[] = [];
  constructor(
    private readonly refuse: Record<string, number> = {},
    private readonly retryAfter = 1,
  ) {
    super({ models: { echo: 'echo' } });
  }
  override async complete(...args: Parameters<FakeProvider['complete']>) {
    // The echo adapter sends the case's input as JSON.
    const text = JSON.parse(args[1].user) as string;
    this.started.push(text);
    this.startedAt.push(Date.now());
    await sleep(CALL_MS);
    if ((this.refuse[text] ?? 0) > 0) {
      this.refuse[text]!--;
      throw Object.assign(new Error('slow down'), { status: 429, retryAfter: this.retryAfter });
    }
    return super.complete(...args);
  }
}

/** A run's gate that lets every call go, keeping what it was asked; `answer` may say otherwise. */
function openGate(answer: () => SlotAnswer = () => ({ startAt: Date.now() })) {
  const asked: string[] = [];
  const gate: GateClient = {
    slot: () => (asked.push('slot'), Promise.resolve(answer())),
    endCall: () => Promise.resolve(),
    report: () => Promise.resolve('running'),
    closeVendor: () => (asked.push('closeVendor'), Promise.resolve()),
  };
  return { gate, asked };
}

const base = { provider: 'fake', id: 'fake/echo', effort: 'default', temperature: null, maxTokens: null };
const contender: Contender = { ...base, key: contenderKey(base), model: 'echo', limits: [] };

function setUp(counts: Record<string, number>, provider: Timed, lanes: number) {
  const cases: (Case & { hash: string })[] = [];
  const early: HeadStartCase[] = [];
  for (const [experimentId, n] of Object.entries(counts)) {
    for (let i = 0; i < n; i++) {
      const key = `${experimentId}/v/${i}`;
      cases.push({
        id: `v/${i}`,
        key,
        dataset: experimentId,
        variant: 'v',
        input: key,
        expected: key,
        path: '/nowhere',
        metadata: {},
        hash: `h-${key}`,
      });
      early.push({ experimentId, caseKey: key, caseHash: `h-${key}`, contender });
    }
  }
  const deps = {
    adapter: new EchoAdapter(),
    scorer: new Exact(),
    registry: new ProviderRegistry([provider]),
    cases: new Map(cases.map((c) => [c.key, c])),
  };
  return new HeadStart('run-1', deps, early, lanes);
}

describe('HeadStart', () => {
  it('keeps each experiment at its lanes, over its cases, until they run out', async () => {
    const provider = new Timed();
    const start = setUp({ e1: 4, e2: 2 }, provider, 2);
    await sleep(CALL_MS / 4);
    expect(provider.started).toEqual(['e1/v/0', 'e1/v/1', 'e2/v/0', 'e2/v/1']);
    await sleep(CALL_MS * 1.5);
    // The first two of e1 ended: its next two followed. e2 has no more.
    expect(provider.started.slice(4).sort()).toEqual(['e1/v/2', 'e1/v/3']);
    await sleep(CALL_MS * 2);
    expect(provider.started).toHaveLength(6);
    expect(start.waiting).toBe(6);
    // Each is there once for its pool, with its result.
    const outcome = await start.take('run-1', 'e1', 'e1/v/3');
    expect(outcome && 'result' in outcome && outcome.result.score).toBe(1);
    expect(start.take('run-1', 'e1', 'e1/v/3')).toBeUndefined();
  });

  it('starts no more for an experiment once its pool took one of its calls over', async () => {
    const provider = new Timed();
    const start = setUp({ e1: 6, e2: 6 }, provider, 2);
    expect(start.take('run-1', 'e1', 'e1/v/0')).toBeDefined();
    await sleep(CALL_MS * 1.5);
    // e1's pool calls its cases itself from now; e2 has no pool yet and goes on.
    expect(provider.started.filter((s) => s.startsWith('e1'))).toEqual(['e1/v/0', 'e1/v/1']);
    expect(provider.started.filter((s) => s.startsWith('e2'))).toHaveLength(4);
    // Another run's pool with the same experiment id changes nothing here.
    expect(start.take('run-2', 'e2', 'e2/v/0')).toBeUndefined();
    await sleep(CALL_MS);
    expect(provider.started.filter((s) => s.startsWith('e2'))).toHaveLength(6);
  });

  it('starts no more once a vendor asked to slow down, even before the run has a gate to tell', async () => {
    // e1/v/0 ends first, with a 429: the calls ending after it start none (its own waits for a gate never attached).
    const provider = new Timed({ 'e1/v/0': Infinity });
    setUp({ e1: 6, e2: 6 }, provider, 2);
    await sleep(CALL_MS * 3.5);
    expect(provider.started).toEqual(['e1/v/0', 'e1/v/1', 'e2/v/0', 'e2/v/1']);
  });

  it('tells the gate, once it has one, a vendor closed from when it said so', async () => {
    // retryAfter 1: e1/v/0 closes its vendor for 1 s at CALL_MS; the gate comes 500 ms after that.
    const provider = new Timed({ 'e1/v/0': Infinity });
    const start = setUp({ e1: 1 }, provider, 1);
    await sleep(CALL_MS + 500);
    const closed: [string, number][] = [];
    const gate: GateClient = {
      slot: () => Promise.reject(new Error('not asked')),
      endCall: () => Promise.resolve(),
      report: () => Promise.resolve('running'),
      closeVendor: (_runId, vendor, seconds) => (closed.push([vendor, seconds]), Promise.resolve()),
    };
    start.attach(gate);
    const outcome = await start.take('run-1', 'e1', 'e1/v/0');
    expect(outcome && 'retry' in outcome && outcome.retry.delay).toBe(1);
    expect(closed).toHaveLength(1);
    expect(closed[0]![1]).toBeGreaterThan(0.3);
    expect(closed[0]![1]).toBeLessThan(0.55);
  });

  it('starts no more after a Ctrl-C; the calls in flight are still there to take over', async () => {
    const provider = new Timed();
    const start = setUp({ e1: 6 }, provider, 2);
    const interrupt = new AbortController();
    start.stopWhen(interrupt.signal);
    interrupt.abort();
    await sleep(CALL_MS * 2.5);
    expect(provider.started).toEqual(['e1/v/0', 'e1/v/1']);
    expect(start.waiting).toBe(2);
    // Interrupted before it was watched: the same.
    const late = new Timed();
    setUp({ e1: 6 }, late, 2).stopWhen(AbortSignal.abort());
    await sleep(CALL_MS * 2.5);
    expect(late.started).toEqual(['e1/v/0', 'e1/v/1']);
  });

  it('resolves takenOver once its pools took every call it started', async () => {
    const provider = new Timed();
    const start = setUp({ e1: 2 }, provider, 2);
    let all = false;
    void start.takenOver().then(() => (all = true));
    void start.take('run-1', 'e1', 'e1/v/0');
    await sleep(0);
    expect(all).toBe(false);
    void start.take('run-1', 'e1', 'e1/v/1');
    await sleep(0);
    expect(all).toBe(true);
  });

  it("tries a failed call again when its delay is over, through the run's gate, and counts the tries", async () => {
    // e1/v/0 is refused once (wait 1 s); the run is made 300 ms after that.
    const provider = new Timed({ 'e1/v/0': 1 });
    const start = setUp({ e1: 1 }, provider, 1);
    const { gate, asked } = openGate();
    start.attach(gate);
    await sleep(CALL_MS + 300);
    start.runMade();
    await sleep(1000);
    expect(provider.started).toEqual(['e1/v/0', 'e1/v/0']);
    const gap = provider.startedAt[1]! - provider.startedAt[0]!;
    expect(gap).toBeGreaterThanOrEqual(CALL_MS + 1000);
    expect(gap).toBeLessThan(CALL_MS + 1000 + 150);
    // The gate heard of the window, then was asked for the second try's turn.
    expect(asked).toEqual(['closeVendor', 'slot']);
    const outcome = await start.take('run-1', 'e1', 'e1/v/0');
    expect(outcome).toMatchObject({ result: { status: 'scored', score: 1, attempts: 2 } });
  });

  it('tries again only once the run is made, however short the delay', async () => {
    const provider = new Timed({ 'e1/v/0': 1 }, 0.05);
    const start = setUp({ e1: 1 }, provider, 1);
    start.attach(openGate().gate);
    await sleep(CALL_MS + 500);
    expect(provider.started).toHaveLength(1);
    const made = Date.now();
    start.runMade();
    await sleep(CALL_MS + 50);
    expect(provider.started).toHaveLength(2);
    expect(provider.startedAt[1]! - made).toBeLessThan(50);
  });

  it('leaves the retry to the pool that takes the call over while it waits, or after a Ctrl-C', async () => {
    const provider = new Timed({ 'e1/v/0': 1, 'e2/v/0': 1, 'e3/v/0': 1 });
    const start = setUp({ e1: 1, e2: 1, e3: 1 }, provider, 1);
    const interrupt = new AbortController();
    start.stopWhen(interrupt.signal);
    start.attach(openGate().gate);
    start.runMade();
    // Taken over while its first try is in flight: it ends with that try.
    const inFlight = start.take('run-1', 'e3', 'e3/v/0');
    await sleep(CALL_MS + 300);
    expect(await inFlight).toMatchObject({ retry: { attempts: 1 } });
    // Taken over 300 ms into its 1 s wait: its pool gets the failure at once, with the one try made.
    const taken = await start.take('run-1', 'e1', 'e1/v/0');
    expect(taken).toMatchObject({ retry: { attempts: 1, delay: 1 } });
    // Interrupted while it waits: past its delay, it is not tried again, and its pool gets the failure.
    interrupt.abort();
    await sleep(1000);
    expect(provider.started.sort()).toEqual(['e1/v/0', 'e2/v/0', 'e3/v/0']);
    const interrupted = await start.take('run-1', 'e2', 'e2/v/0');
    expect(interrupted).toMatchObject({ retry: { attempts: 1 } });
  });

  it('ends a case whose tries are spent with the error', async () => {
    const provider = new Timed({ 'e1/v/0': Infinity }, 0.01);
    const start = setUp({ e1: 1 }, provider, 1);
    start.attach(openGate().gate);
    start.runMade();
    await sleep(CALL_MS * MAX_ATTEMPTS + 200);
    const e1 = await start.take('run-1', 'e1', 'e1/v/0');
    expect(provider.started).toHaveLength(MAX_ATTEMPTS);
    expect(e1).toMatchObject({ result: { status: 'error', score: null, attempts: MAX_ATTEMPTS } });
    expect(e1 && 'result' in e1 && e1.result.error).toContain('slow down');
  });

  it("does what the run's gate says: a try again that finds the run paused is handed back unrun", async () => {
    const provider = new Timed({ 'e1/v/0': 1 }, 0.01);
    const { gate, asked } = openGate(() => ({ paused: true }));
    const start = setUp({ e1: 1 }, provider, 1);
    start.attach(gate);
    start.runMade();
    await sleep(CALL_MS + 200);
    expect(asked).toEqual(['closeVendor', 'slot']);
    expect(await start.take('run-1', 'e1', 'e1/v/0')).toEqual({ deferred: 'paused' });
    expect(provider.started).toHaveLength(1);
  });
});
