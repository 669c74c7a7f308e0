import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIBatchApi, parseResultFile, type BatchStatus } from '../../src/providers/batch.ts';
import { BatchServer, lineUserText, type BatchServerOptions } from '../helpers/batch-server.ts';

const KEY = 'sk-batch-api-test-77';
const requests = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    customId: `key-${i}`,
    body: { model: 'gpt-x', messages: [{ role: 'user', content: `case ${i}` }] },
  }));
const TAG = { run: 'r1', experiment: 'e1', round: '1' };

let server: BatchServer | undefined;
afterEach(() => server?.stop());

async function api(options: BatchServerOptions = {}, env: NodeJS.ProcessEnv = { BATCH_KEY: KEY }) {
  server = new BatchServer({ delayMs: 50, ...options });
  const url = await server.start();
  return new OpenAIBatchApi({ name: 'openai', baseUrl: () => url, apiKeyEnv: 'BATCH_KEY', env });
}

async function ended(batches: OpenAIBatchApi, id: string): Promise<BatchStatus> {
  for (;;) {
    const status = await batches.retrieve(id);
    if (status.status !== 'in_progress') return status;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('OpenAIBatchApi against a fake Batch API on 127.0.0.1', () => {
  it('uploads the requests as JSONL, makes one batch, and reads each reply back by its id', async () => {
    const batches = await api();
    const { batch, created } = await batches.submit(requests(3), TAG);
    expect(created).toBe(true);
    expect(server!.requests.map((r) => [r.custom_id, r.url, lineUserText(r)])).toEqual([
      ['key-0', '/v1/chat/completions', 'case 0'],
      ['key-1', '/v1/chat/completions', 'case 1'],
      ['key-2', '/v1/chat/completions', 'case 2'],
    ]);
    const done = await ended(batches, batch.id);
    expect(done).toMatchObject({ status: 'completed', total: 3, completed: 3, failed: 0 });
    const lines = await batches.results(done);
    expect(lines.map((l) => l.customId)).toEqual(['key-0', 'key-1', 'key-2']);
    expect(lines[1]!.body).toMatchObject({ choices: [{ message: { content: 'case 1' } }] });
    expect([...server!.authorizations]).toEqual([`Bearer ${KEY}`]);
  });

  it('finds the batch an earlier submit made with the same tag instead of making a second', async () => {
    const batches = await api();
    const first = await batches.submit(requests(2), TAG);
    const again = await batches.submit(requests(2), TAG);
    const otherRound = await batches.submit(requests(2), { ...TAG, round: '2' });
    expect([again.batch.id, again.created]).toEqual([first.batch.id, false]);
    expect(otherRound.created).toBe(true);
    expect(server!.batches).toHaveLength(2);
  });

  it('reads per-request errors and the requests an expired batch never ran from its error file', async () => {
    const batches = await api({
      answer: (line) =>
        line.custom_id === 'key-0'
          ? { status: 500, message: 'upstream broke' }
          : { text: lineUserText(line) },
      expire: () => 3,
    });
    const { batch } = await batches.submit(requests(5), TAG);
    const done = await ended(batches, batch.id);
    expect(done).toMatchObject({ status: 'expired', completed: 2, failed: 3 });
    const lines = await batches.results(done);
    const failed = lines.filter((l) => l.error !== undefined);
    expect(failed.map((l) => [l.customId, l.status, l.error])).toEqual([
      ['key-0', 500, 'upstream broke'],
      ['key-3', undefined, 'This request could not be executed before the window expired.'],
      ['key-4', undefined, 'This request could not be executed before the window expired.'],
    ]);
  });

  it('cancels a batch still running', async () => {
    const batches = await api({ delayMs: 60_000 });
    const { batch } = await batches.submit(requests(2), TAG);
    expect((await batches.cancel(batch.id)).status).toBe('cancelled');
    expect((await batches.retrieve(batch.id)).status).toBe('cancelled');
  });

  it('fails without its key before sending anything, and names neither key nor value on a refusal', async () => {
    const keyless = await api({}, {});
    await expect(keyless.submit(requests(1), TAG)).rejects.toMatchObject({
      status: 401,
      message: "BATCH_KEY is not set in this worker's environment",
    });
    expect(server!.batches).toHaveLength(0);
    await server!.stop();
    const batches = await api();
    const error = (await batches.retrieve('batch_missing').then(
      () => undefined,
      (e: unknown) => e,
    )) as Error & { status: number };
    expect(error.status).toBe(404);
    expect(error.message).not.toContain(KEY);
  });
});

describe('parseResultFile', () => {
  it.each([
    [
      'a reply',
      '{"custom_id":"a","response":{"status_code":200,"body":{"x":1}}}',
      [{ customId: 'a', body: { x: 1 } }],
    ],
    [
      'an error status',
      '{"custom_id":"b","response":{"status_code":429,"body":{"error":{"message":"slow"}}}}',
      [{ customId: 'b', status: 429, error: 'slow' }],
    ],
    [
      'an error without response',
      '{"custom_id":"c","response":null,"error":{"code":"batch_expired"}}',
      [{ customId: 'c', error: 'batch_expired' }],
    ],
    ['a line that does not parse', '{"custom_id":', []],
    ['an empty line', '', []],
  ])('reads %s', (_name, text, want) => {
    expect(parseResultFile(text)).toEqual(want);
  });
});
