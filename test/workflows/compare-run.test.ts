import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type Connection } from '@temporalio/client';
import { ClosableConnection } from '../../src/client/closable-connection.ts';
import { defaultPayloadConverter } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import type { GateClient } from '../../activities/gated-model.ts';
import { PoolRegistry } from '../../activities/pool-registry.ts';
import type { PoolResult } from '../../activities/run-cases.ts';
import { EchoAdapter, FakeProvider } from '../../src/api/testing.ts';
import { Scorer } from '../../src/api/scorer.ts';
import type { Case, Json, Metric, Reply, Score } from '../../src/api/types.ts';
import { expandContenders } from '../../src/core/matrix.ts';
import { experimentWorkflowId, type RunInput } from '../../src/core/run-input.ts';
import { ProviderRegistry } from '../../src/providers/registry.ts';
import { followExperimentResults, readExperimentResults } from '../../src/client/experiment-history.ts';
import { Runs } from '../../src/client/runs.ts';
import { temporalExperiments } from '../../src/client/experiment-client.ts';
import { temporalGate } from '../../src/client/gate-client.ts';
import { plainWorkflowBundle } from '../helpers/plain-bundle.ts';
import { RUN_HEADER, temporalAddress } from '../helpers/temporal.ts';

class EqualScorer extends Scorer {
  metrics(): Metric[] {
    return [{ name: 'exact', description: 'same JSON', primary: true }];
  }
  call(kase: Case, reply: Reply): Score {
    const same = JSON.stringify(kase.expected) === JSON.stringify(reply.output) ? 1 : 0;
    return { value: same, metrics: { exact: same } };
  }
}

function makeCases(dataset: string, n: number): (Case & { hash: string })[] {
  return Array.from({ length: n }, (_, i) => {
    const id = `v/${String(i + 1).padStart(3, '0')}`;
    const expected: Json = { n: i };
    return {
      id,
      key: `${dataset}/${id}`,
      dataset,
      variant: 'v',
      input: `case ${i}`,
      expected,
      path: '/nowhere',
      metadata: {},
      hash: `h${i}`,
    };
  });
}

let connection: Connection;
let native: NativeConnection;
let client: Client;

beforeAll(async () => {
  connection = await ClosableConnection.connect({ address: temporalAddress() });
  native = await NativeConnection.connect({ address: temporalAddress() });
  client = new Client({ connection });
});

afterAll(async () => {
  await connection?.close();
  await native?.close();
});

async function runWith(
  provider: FakeProvider,
  input: Omit<RunInput, 'runId' | 'suite'>,
  cases: (Case & { hash: string })[],
  during?: (runId: string) => Promise<unknown>,
  /** Wraps the gate the worker's activities reach, to watch what they ask of it. */
  watchGate: (gate: GateClient) => GateClient = (gate) => gate,
) {
  const runId = `t-${randomUUID().slice(0, 8)}`;
  const suiteDeps = {
    adapter: new EchoAdapter(),
    scorer: new EqualScorer(),
    registry: new ProviderRegistry([provider]),
    cases: new Map(cases.map((c) => [c.key, c])),
  };
  const gate = watchGate(temporalGate(client));
  const taskQueue = `test-${randomUUID()}`;
  const worker = await Worker.create({
    connection: native,
    taskQueue,
    workflowBundle: await plainWorkflowBundle(),
    activities: createActivities({
      ...suiteDeps,
      gate,
      experiments: temporalExperiments(client),
      pools: new PoolRegistry(),
      // These runs name no tracking, so their workflows never schedule the track activity.
      track: {
        runs: new Runs(client),
        cases: new Map(cases.map((c) => [c.key, c])),
        trackers: { name: 'test', projectDir: '/nowhere', sections: {}, trackers: [] },
        env: {},
      },
    }),
  });
  return worker.runUntil(async () => {
    const runs = new Runs(client);
    await runs.start(taskQueue, { runId, suite: 'test', ...input }, RUN_HEADER);
    const [result] = await Promise.all([runs.outcome(runId), during?.(runId)]);
    const ids = result.experiments.map((e) => e.id);
    return { result, results: await runs.results(runId, ids), runId };
  });
}

/** How many executions of a workflow id ended by continuing as new (visibility catches up within a few seconds). */
async function continuedAsNew(workflowId: string): Promise<number> {
  for (let tries = 0; ; tries++) {
    let count = 0;
    const query = `WorkflowId = '${workflowId}' AND ExecutionStatus = 'ContinuedAsNew'`;
    for await (const _ of client.workflow.list({ query })) count++;
    if (count > 0 || tries >= 20) return count;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * What the pools of an experiment returned as their activities' results. Temporal refuses the result of an attempt it
 * has given up on (a heartbeat timeout while the server was away) even when its worker never stopped, so a case
 * reported only there would be called again by the next attempt.
 */
async function poolResults(runId: string, experimentId: string): Promise<PoolResult[]> {
  const history = await client.workflow.getHandle(experimentWorkflowId(runId, experimentId)).fetchHistory();
  const pools = new Set<string>();
  return (history.events ?? []).flatMap((event) => {
    if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'runCases')
      pools.add(String(event.eventId));
    const completed = event.activityTaskCompletedEventAttributes;
    const payload = completed?.result?.payloads?.[0];
    if (!payload || !pools.has(String(completed.scheduledEventId))) return [];
    return [defaultPayloadConverter.fromPayload<PoolResult>(payload)];
  });
}

const entry = (id: string) => ({
  id,
  provider: 'fake',
  requestType: 'prompt',
  model: id.split('/')[1]!,
  effort: ['default'],
  temperature: [null],
  maxTokens: null,
  limits: [],
});

describe('compareRun on a real Temporal dev server', () => {
  it('runs every case of every experiment and scores wrong answers 0, transport errors as errors', async () => {
    const cases = [...makeCases('a', 3), ...makeCases('b', 2)];
    const provider = new FakeProvider({
      models: {
        echo: 'echo',
        liar: [
          '{"n": 0}',
          '{"n": 99}',
          '{"n": 2}',
          'not json',
          new Error('boom'),
          new Error('boom'),
          new Error('boom'),
          new Error('boom'),
          new Error('boom'),
        ],
      },
    });
    const contenders = expandContenders([entry('fake/echo'), entry('fake/liar')]);
    const { result, results, runId } = await runWith(
      provider,
      {
        contenders,
        experiments: [
          { id: '001-a', contender: 0, dataset: 'a' },
          { id: '002-a', contender: 1, dataset: 'a' },
          { id: '003-b', contender: 0, dataset: 'b' },
          { id: '004-b', contender: 1, dataset: 'b' },
        ],
        datasets: {
          a: cases.slice(0, 3).map((c) => [c.key, c.hash]),
          b: cases.slice(3).map((c) => [c.key, c.hash]),
        },
        parallelism: 1,
        concurrency: 1,
        limits: {},
      },
      cases,
    );
    expect(result.experiments.map((e) => [e.id, e.cases, e.errors])).toEqual([
      ['001-a', 3, 0],
      ['002-a', 3, 0],
      ['003-b', 2, 0],
      ['004-b', 2, 2],
    ]);
    expect(results).toHaveLength(10);
    const liarA = results.filter((r) => r.experimentId === '002-a').map((r) => [r.status, r.score]);
    expect(liarA).toEqual([
      ['scored', 1],
      ['scored', 0],
      ['scored', 1],
    ]);
    const liarB = results.filter((r) => r.experimentId === '004-b');
    expect(liarB[0]).toMatchObject({ status: 'reply_error', score: 0, metrics: { exact: 0 } });
    expect(liarB[1]).toMatchObject({ status: 'error', score: null });
    expect(liarB[1]!.error).toContain('boom');
    expect(liarB[1]!.attempts).toBe(5);
    expect(results.filter((r) => r.experimentId === '001-a').every((r) => r.score === 1)).toBe(true);
    // Every finished case was reported by exchange, none left to the pool's result.
    for (const { id } of result.experiments) {
      const returned = await poolResults(runId, id);
      expect(returned.length, id).toBeGreaterThan(0);
      expect(
        returned.map((pool) => pool.settled),
        id,
      ).toEqual(returned.map(() => []));
    }
  }, 120_000);

  it('calls each case once, and a case refused with a 429 once more after its Retry-After', async () => {
    const cases = [...makeCases('a', 5), ...makeCases('b', 3)];
    const calledAt: number[] = [];
    // 200 ms a call. The first call of `flaky` is refused with a 429, which closes its vendor through the gate.
    let refused = false;
    const provider = new (class extends FakeProvider {
      override async complete(...args: Parameters<FakeProvider['complete']>) {
        calledAt.push(Date.now());
        await sleep(200);
        if (args[0].name === 'flaky' && !refused) {
          refused = true;
          throw Object.assign(new Error('slow down'), { status: 429, retryAfter: 0.5 });
        }
        return super.complete(...args);
      }
    })({ models: { echo: 'echo', flaky: 'echo' } });
    const input = {
      contenders: expandContenders([entry('fake/echo'), entry('fake/flaky')]),
      experiments: [
        { id: '001-a', contender: 0, dataset: 'a' },
        { id: '002-b', contender: 1, dataset: 'b' },
      ],
      datasets: {
        a: cases.slice(0, 5).map((c) => [c.key, c.hash] as [string, string]),
        b: cases.slice(5).map((c) => [c.key, c.hash] as [string, string]),
      },
      parallelism: 2,
      concurrency: 2,
      limits: {},
    };
    // What the pools asked of the gate: the calls' slots.
    const asked: string[] = [];
    const watchGate = (gate: GateClient): GateClient => ({
      ...gate,
      slot: (runId, request) => (asked.push('slot'), gate.slot(runId, request)),
    });
    const { result, results } = await runWith(provider, input, cases, undefined, watchGate);
    expect(result.experiments.map((e) => [e.id, e.cases, e.errors])).toEqual([
      ['001-a', 5, 0],
      ['002-b', 3, 0],
    ]);
    expect(results.map((r) => r.caseKey).sort()).toEqual(cases.map((c) => c.key).sort());
    expect(results.every((r) => r.score === 1)).toBe(true);
    // Every case called once, but the refused one twice.
    expect(calledAt).toHaveLength(cases.length + 1);
    expect(provider.calls).toHaveLength(cases.length);
    const retried = results.filter((r) => r.attempts > 1);
    expect(retried.map((r) => [r.experimentId, r.caseKey, r.attempts])).toEqual([['002-b', 'b/v/001', 2]]);
    // The retried case asked the gate again for its slot after the 429 closed its vendor.
    expect(asked.length).toBeGreaterThanOrEqual(cases.length + 1);
  }, 120_000);

  it('continues the run, an experiment and the gate as new when their histories grow, and loses no case', async () => {
    // The test server suggests continue-as-new at 200 events: 40 small experiments take the run past it, and an
    // experiment of 600 cases, exchanged a few dozen at a time, takes its own history past it.
    const small = Array.from({ length: 40 }, (_, i) => makeCases(`s${i}`, 1)).flat();
    const big = makeCases('big', 600);
    const cases = [...small, ...big];
    // 10 ms a call keeps the pool's pace, and so its leases, small: the big experiment exchanges dozens of times.
    const provider = new (class extends FakeProvider {
      override async complete(...args: Parameters<FakeProvider['complete']>) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        return super.complete(...args);
      }
    })({ models: { echo: 'echo' } });
    const datasets = Object.fromEntries(
      [...new Set(cases.map((c) => c.dataset))].map((d) => [
        d,
        cases.filter((c) => c.dataset === d).map((c) => [c.key, c.hash] as [string, string]),
      ]),
    );
    const experiments = Object.keys(datasets).map((d, i) => ({
      id: `${String(i + 1).padStart(3, '0')}-${d}`,
      contender: 0,
      dataset: d,
    }));
    // Followed while it runs, the big experiment's history gives what a read gives once it has closed.
    let followed: Promise<unknown> = Promise.resolve(undefined);
    const follow = async (runId: string) => {
      const workflowId = `llm-evals/${runId}/041-big`;
      for (;;) {
        const started = await client.workflow
          .getHandle(workflowId)
          .describe()
          .then(() => true)
          .catch(() => false);
        if (started) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      followed = followExperimentResults(client, workflowId, new AbortController().signal);
    };
    const { result, results, runId } = await runWith(
      provider,
      {
        // A limit no call waits on still makes every call ask the gate for a slot: 640 updates take it past 200 events.
        contenders: expandContenders([{ ...entry('fake/echo'), limits: ['fake'] }]),
        experiments,
        datasets,
        parallelism: 1,
        concurrency: 2,
        limits: { fake: { burst: 100_000, perMinute: 100_000 } },
      },
      cases,
      follow,
    );
    expect(result.state).toBe('completed');
    expect(result.experiments.reduce((n, e) => n + e.cases, 0)).toBe(cases.length);
    expect(results.map((r) => r.caseKey).sort()).toEqual(cases.map((c) => c.key).sort());
    expect(results.every((r) => r.score === 1)).toBe(true);
    expect(provider.calls).toHaveLength(cases.length);
    expect(await continuedAsNew(`llm-evals/${runId}`)).toBeGreaterThan(0);
    expect(await continuedAsNew(`llm-evals/${runId}/041-big`)).toBeGreaterThan(0);
    expect(await continuedAsNew(`llm-evals/${runId}/gate`)).toBeGreaterThan(0);
    const read = await readExperimentResults(client, `llm-evals/${runId}/041-big`);
    expect(read.results).toHaveLength(600);
    expect(await followed).toEqual(read.results);
  }, 240_000);
});
