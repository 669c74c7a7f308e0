import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { GateClient } from '../../activities/gated-model.ts';
import { HeadStart } from '../../activities/head-start.ts';
import { EchoAdapter, FakeProvider } from '../../src/api/testing.ts';
import { Scorer } from '../../src/api/scorer.ts';
import type { Case, Metric, Reply, Score } from '../../src/api/types.ts';
import { contenderKey, type Contender } from '../../src/core/matrix.ts';
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

/** A fake whose calls take CALL_MS, keeping when each started and for which case; `refuse` answers 429s. */
class Timed extends FakeProvider {
  readonly started: string[] = [];
  constructor(private readonly refuse = new Set<string>()) {
    super({ models: { echo: 'echo' } });
  }
  override async complete(...args: Parameters<FakeProvider['complete']>) {
    // The echo adapter sends the case's input as JSON.
    const text = JSON.parse(args[1].user) as string;
    this.started.push(text);
    await sleep(CALL_MS);
    if (this.refuse.has(text)) throw Object.assign(new Error('slow down'), { status: 429, retryAfter: 1 });
    return super.complete(...args);
  }
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
    const provider = new Timed(new Set(['e1/v/0']));
    setUp({ e1: 6, e2: 6 }, provider, 2);
    await sleep(CALL_MS * 3.5);
    expect(provider.started).toEqual(['e1/v/0', 'e1/v/1', 'e2/v/0', 'e2/v/1']);
  });

  it('tells the gate, once it has one, a vendor closed from when it said so', async () => {
    // retryAfter 1: e1/v/0 closes its vendor for 1 s at CALL_MS; the gate comes 500 ms after that.
    const provider = new Timed(new Set(['e1/v/0']));
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
});
