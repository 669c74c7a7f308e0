import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createBatchActivities } from '../../activities/batch.ts';
import { cachedModel, replyCache } from '../../activities/cached-model.ts';
import type { GateClient } from '../../activities/gated-model.ts';
import type { Scorer } from '../../src/api/scorer.ts';
import { EchoAdapter } from '../../src/api/testing.ts';
import type { Case, Model } from '../../src/api/types.ts';
import { ReplyStore } from '../../src/cache/store.ts';
import type { Contender } from '../../src/core/matrix.ts';
import { UNKNOWN_USAGE } from '../../src/core/results.ts';
import { OpenAICompatibleProvider } from '../../src/providers/openai-compatible.ts';
import { ProviderRegistry } from '../../src/providers/registry.ts';
import { BatchServer } from '../helpers/batch-server.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
let server: BatchServer | undefined;
afterEach(() => server?.stop());

const CONTENDER: Contender = {
  key: 'openai:openai/gpt-x',
  id: 'openai/gpt-x',
  provider: 'openai',
  model: 'gpt-x',
  effort: 'default',
  temperature: 0,
  maxTokens: null,
  limits: [],
};
const cases = new Map<string, Case & { hash: string }>(
  [1, 2, 3].map((n) => [
    `d/v/${n}`,
    {
      id: `v/${n}`,
      key: `d/v/${n}`,
      dataset: 'd',
      variant: 'v',
      input: '',
      expected: { n },
      path: '',
      metadata: {},
      hash: `h${n}`,
    },
  ]),
);
// Collecting requests and reading replies takes no slot: a gate that is asked fails the test.
const gate = new Proxy({} as GateClient, {
  get: () => () => Promise.reject(new Error('the gate was asked')),
});

async function setUp(
  options: ConstructorParameters<typeof BatchServer>[0] = {},
  adapter: EchoAdapter = new EchoAdapter(),
) {
  server = new BatchServer({ delayMs: 0, ...options });
  const url = await server.start();
  const provider = new OpenAICompatibleProvider(
    'openai',
    { baseUrl: url, prices: { input: 1000, output: 2000 }, models: [{ model: 'gpt-x' }], batch: true },
    {},
  );
  const dir = mkdtempSync(join(tmpdir(), 'llm-evals-batch-activities-'));
  dirs.push(dir);
  const replies = replyCache(new ReplyStore(dir), {
    inputOf: () => Promise.resolve({ header: { settings: { cache: 'read' } } }),
  });
  const deps = {
    adapter,
    scorer: {} as Scorer,
    registry: new ProviderRegistry([provider]),
    cases,
    gate,
    replies,
  };
  return { deps, provider, replies, activities: createBatchActivities(deps) };
}

const task = (round: number) => ({
  runId: 'run-1',
  experimentId: '001-d',
  dataset: 'd',
  contender: CONTENDER,
  round,
  cases: [...cases.values()].map((c): [string, string] => [c.key, c.hash]),
});

describe('the batch activities against a fake Batch API', () => {
  it('make one batch per round even when the submit runs again, as after a crash before its result was recorded', async () => {
    const { activities } = await setUp();
    const first = await activities.submitBatch(task(1));
    const again = await activities.submitBatch(task(1));
    expect(first).toMatchObject({ requests: 3, created: true });
    expect(again).toMatchObject({ batchId: first.batchId, requests: 3, created: false });
    expect(server!.batches).toHaveLength(1);
  });

  it('write the replies into the cache at the batch price, where the run finds them as its own calls', async () => {
    const { activities, provider, replies } = await setUp();
    const { batchId } = await activities.submitBatch(task(1));
    const received = await activities.receiveBatch({
      provider: 'openai',
      batchId: batchId!,
      runId: 'run-1',
      contender: CONTENDER,
    });
    expect(received).toEqual({ replies: 3, failed: 0, reasons: [] });
    // The next round has nothing to send: every request has its reply.
    expect(await activities.submitBatch(task(2))).toEqual({ requests: 0 });
    // 20 tokens in at $1000 and 10 out at $2000 per million: $0.04 a call, $0.02 through the batch.
    const log = { usage: UNKNOWN_USAGE, latency: null, waited: 0 };
    const hits = { replies: 0, calls: 0, paidUsd: 0 };
    const model = cachedModel(
      {
        id: CONTENDER.id,
        name: 'gpt-x',
        provider: 'openai',
        temperature: 0,
        complete: () => Promise.reject(new Error('called')),
      },
      CONTENDER,
      provider,
      'run-1',
      replies,
      log,
      hits,
    );
    const reply = await new EchoAdapter().call(cases.get('d/v/2')!, model);
    expect(reply.output).toEqual({ n: 2 });
    // Found as this run's own call, with the batch that paid for it named.
    expect(hits).toEqual({
      replies: 0,
      calls: 1,
      paidUsd: expect.closeTo(0.02, 9) as number,
      batched: { calls: 1, ids: [batchId] },
    });
  });

  it('leave out the requests the batch failed, for the next round to send again', async () => {
    const { activities } = await setUp({
      answer: (line) =>
        line.body.messages.at(-1)!.content.includes('"n":2')
          ? { status: 500, message: 'broke' }
          : { text: line.body.messages.at(-1)!.content },
    });
    const { batchId } = await activities.submitBatch(task(1));
    const received = await activities.receiveBatch({
      provider: 'openai',
      batchId: batchId!,
      runId: 'run-1',
      contender: CONTENDER,
    });
    expect(received).toEqual({ replies: 2, failed: 1, reasons: ['broke'] });
    const next = await activities.submitBatch(task(2));
    expect(next.requests).toBe(1);
    expect(server!.batches.map((b) => b.lines.length)).toEqual([3, 1]);
  });

  it('send the requests in case order, whichever adapter asked first', async () => {
    // The first case's adapter asks last: the batch still lists its request first.
    class LaterFirst extends EchoAdapter {
      override async call(kase: Case, model: Model) {
        await new Promise((resolve) => setTimeout(resolve, (4 - (kase.expected as { n: number }).n) * 30));
        return super.call(kase, model);
      }
    }
    const { activities } = await setUp({}, new LaterFirst());
    await activities.submitBatch(task(1));
    const asked = server!.batches[0]!.lines.map((l) => l.body.messages.at(-1)!.content);
    expect(asked).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
  });
});
