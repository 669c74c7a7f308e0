import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.ts';
import { EchoAdapter, FakeProvider } from '../../src/api/testing.ts';
import { Scorer } from '../../src/api/scorer.ts';
import type { Case, Json, Metric, Reply, Score } from '../../src/api/types.ts';
import { expandContenders } from '../../src/core/matrix.ts';
import type { RunInput } from '../../src/core/run-input.ts';
import { ProviderRegistry } from '../../src/providers/registry.ts';
import { fetchResults, startRun } from '../../src/temporal/run.ts';
import { temporalGate } from '../../src/temporal/gate-client.ts';
import { WORKFLOWS_PATH } from '../../src/temporal/worker.ts';
import type { RunResult } from '../../workflows/index.ts';
import { temporalAddress } from '../helpers/temporal.ts';

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

const HEADER = {
  createdAt: new Date(0).toISOString(),
  suite: { name: 'test', project: '/nowhere' },
  options: {},
  settings: { parallelism: 1, concurrency: 1 },
  metrics: [],
  refused: [],
};

let connection: Connection;
let native: NativeConnection;
let client: Client;

beforeAll(async () => {
  connection = await Connection.connect({ address: temporalAddress() });
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
) {
  const taskQueue = `test-${randomUUID()}`;
  const worker = await Worker.create({
    connection: native,
    taskQueue,
    workflowsPath: WORKFLOWS_PATH,
    activities: createActivities({
      adapter: new EchoAdapter(),
      scorer: new EqualScorer(),
      registry: new ProviderRegistry([provider]),
      cases: new Map(cases.map((c) => [c.key, c])),
      gate: temporalGate(client),
    }),
  });
  const runId = `t-${randomUUID().slice(0, 8)}`;
  return worker.runUntil(async () => {
    const handle = await startRun(client, taskQueue, { runId, suite: 'test', ...input }, HEADER);
    const result = (await handle.result()) as RunResult;
    return { result, results: await fetchResults(client, result), handle, runId };
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
    const { result, results } = await runWith(
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
        sliceSize: 2,
        limits: {},
      },
      cases,
    );
    expect(result.experiments.map((e) => [e.id, e.slices, e.cases])).toEqual([
      ['001-a', 2, 3],
      ['002-a', 2, 3],
      ['003-b', 1, 2],
      ['004-b', 1, 2],
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
    expect(results.filter((r) => r.experimentId === '001-a').every((r) => r.score === 1)).toBe(true);
  }, 120_000);

  it('continues the run and its gate as new when their histories grow, and loses no case', async () => {
    // The test server suggests continue-as-new at 200 events: 60 one-case slices take the run past it.
    const cases = makeCases('big', 60);
    const provider = new FakeProvider({ models: { echo: 'echo' } });
    const { result, results, runId } = await runWith(
      provider,
      {
        contenders: expandContenders([entry('fake/echo')]),
        experiments: [{ id: '001-big', contender: 0, dataset: 'big' }],
        datasets: { big: cases.map((c) => [c.key, c.hash]) },
        parallelism: 4,
        concurrency: 1,
        sliceSize: 1,
        limits: {},
      },
      cases,
    );
    expect(result.experiments).toEqual([{ id: '001-big', slices: 60, cases: 60, errors: 0 }]);
    expect(results.map((r) => r.caseKey).sort()).toEqual(cases.map((c) => c.key).sort());
    expect(results.every((r) => r.score === 1)).toBe(true);
    expect(provider.calls).toHaveLength(60);
    expect(await continuedAsNew(`llm-evals/${runId}`)).toBeGreaterThan(0);
    expect(await continuedAsNew(`llm-evals/${runId}/gate`)).toBeGreaterThan(0);
  }, 240_000);
});
