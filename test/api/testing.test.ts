import { describe, expect, it } from 'vitest';
import { Adapter } from '../../src/api/adapter.ts';
import { Scorer } from '../../src/api/scorer.ts';
import {
  EchoAdapter,
  FakeModel,
  FakeProvider,
  FakeRepliesExhausted,
  type FakeScript,
} from '../../src/api/testing.ts';
import type { Case, CompletionRequest, Json, Model, Reply, Score } from '../../src/api/types.ts';

const model = (name: string, settings: Record<string, unknown> = {}) => ({
  name,
  id: `fake/${name}`,
  ...settings,
});

const kase = (expected: Json): Case => ({
  id: 'clear/001',
  key: 'animals/clear/001',
  dataset: 'animals',
  variant: 'clear',
  input: 'The cat sits on the mat.',
  expected,
  path: '/nowhere',
  metadata: {},
});

describe('FakeProvider', () => {
  it('echoes the user text with an echo script', async () => {
    const provider = new FakeProvider({ models: { echo: 'echo' } });
    const response = await provider.complete(model('echo'), {
      system: 'be brief',
      user: 'hello there world',
    });
    expect(response.text).toBe('hello there world');
  });

  it('uses canned replies in order, then fails loudly', async () => {
    const provider = new FakeProvider({ models: { canned: ['first', 'second'] } });
    const ask = () => provider.complete(model('canned'), { user: 'q' });
    expect((await ask()).text).toBe('first');
    expect((await ask()).text).toBe('second');
    const exhausted = ask();
    await expect(exhausted).rejects.toBeInstanceOf(FakeRepliesExhausted);
    await expect(exhausted).rejects.toThrow('fake model fake/canned has no canned reply left for call 3');
  });

  it.each<[string, FakeScript, string]>([
    ['a text', ['{"a":1}'], '{"a":1}'],
    [
      'a function of the request',
      [(request: CompletionRequest) => `you said ${request.user}`],
      'you said ping',
    ],
  ])('answers with %s', async (_, script, text) => {
    const provider = new FakeProvider({ models: { m: script } });
    expect((await provider.complete(model('m'), { user: 'ping' })).text).toBe(text);
  });

  it('answers every call with a function script, never running out', async () => {
    const provider = new FakeProvider({ models: { m: (request) => request.user.toUpperCase() } });
    for (const user of ['a', 'b', 'c'])
      expect((await provider.complete(model('m'), { user })).text).toBe(user.toUpperCase());
    const fake = new FakeModel('fake/m', (request) => `#${request.user}`);
    expect((await fake.complete({ user: 'x' })).text).toBe('#x');
    expect((await fake.complete({ user: 'y' })).text).toBe('#y');
  });

  it('returns the tool calls a canned reply carries beside its text, billed like text', async () => {
    const call = { id: 'call_1', name: 'weather', arguments: { city: 'Oslo' } };
    const provider = new FakeProvider({
      models: { agent: [{ text: '', toolCalls: [call] }, (r) => ({ text: `done: ${r.user}` })] },
    });
    const first = await provider.complete(model('agent'), { user: 'weather in Oslo?' });
    expect(first).toMatchObject({ text: '', toolCalls: [call] });
    expect(first.usage.outputTokens).toBeGreaterThan(0);
    const second = await provider.complete(model('agent'), { user: 'thanks' });
    expect(second.text).toBe('done: thanks');
    expect(second).not.toHaveProperty('toolCalls');
    const fake = new FakeModel('fake/agent', [{ text: '', toolCalls: [call] }]);
    expect(await fake.complete({ user: 'q' })).toMatchObject({ text: '', toolCalls: [call] });
  });

  it('throws a canned Error as a transport failure and goes on with the next reply', async () => {
    const provider = new FakeProvider({ models: { flaky: [new Error('503 overloaded'), 'ok'] } });
    await expect(provider.complete(model('flaky'), { user: 'q' })).rejects.toThrow('503 overloaded');
    expect((await provider.complete(model('flaky'), { user: 'q' })).text).toBe('ok');
  });

  it('rejects a model it does not have', async () => {
    const provider = new FakeProvider({ models: { echo: 'echo' } });
    await expect(provider.complete(model('other'), { user: 'q' })).rejects.toThrow(
      'fake provider fake has no model other',
    );
  });

  it('records every call in order with the model id, the request and the settings', async () => {
    const provider = new FakeProvider({ models: { echo: 'echo', canned: ['x'] } });
    await provider.complete(model('echo', { effort: 'low', temperature: 0.2 }), { user: 'one', json: true });
    await provider.complete(model('canned', { maxTokens: 64 }), { system: 's', user: 'two' });
    expect(provider.calls).toEqual([
      {
        model: 'fake/echo',
        request: { user: 'one', json: true },
        settings: { effort: 'low', temperature: 0.2 },
      },
      { model: 'fake/canned', request: { system: 's', user: 'two' }, settings: { maxTokens: 64 } },
    ]);
  });

  it('bills tokens as a real provider would (the rule of estimateTokens, template markers, end token) and prices them', async () => {
    const provider = new FakeProvider({
      models: { m: ['four words of reply', '{"animal":"cat","legs":4}'] },
      inputPrice: 0.5,
      outputPrice: 2,
    });
    const request = { system: 'two words', user: 'and three more' };
    // Input: 2 + 3 words, 4 markers per message, 3 to open the reply. Output: 4 words and the end token.
    const response = await provider.complete(model('m'), request);
    expect(response.usage).toEqual({ inputTokens: 16, outputTokens: 5, costUsd: 16 * 0.5 + 5 * 2 });
    expect(provider.countTokens(model('m'), request)).toBe(16);
    expect(response.raw).toEqual({ fake: true });
    // A JSON reply is many tokens, not one word: {" animal ":" cat "," legs ": 4 } and the end token.
    const json = await provider.complete(model('m'), request);
    expect(json.usage.outputTokens).toBe(11);
  });

  it('does not use up the caller’s script array', async () => {
    const script = ['a', 'b'];
    const provider = new FakeProvider({ models: { m: script } });
    await provider.complete(model('m'), { user: 'q' });
    expect(script).toEqual(['a', 'b']);
  });

  it('lists its models in the catalog with prices, and takes a name, prefix and request type', () => {
    const provider = new FakeProvider({
      name: 'local',
      prefix: 'ollama/',
      requestType: 'typesafe',
      direct: true,
      models: { a: 'echo', b: [] },
      inputPrice: 1,
      outputPrice: 2,
    });
    expect(provider).toMatchObject({
      name: 'local',
      prefix: 'ollama/',
      requestType: 'typesafe',
      direct: true,
      envKeys: [],
    });
    expect(provider.catalog()).toEqual([
      { id: 'ollama/a', inputPrice: 1, outputPrice: 2 },
      { id: 'ollama/b', inputPrice: 1, outputPrice: 2 },
    ]);
  });

  it('defaults to a non-direct prompt provider named fake with prefix fake/', () => {
    expect(new FakeProvider({ models: {} })).toMatchObject({
      name: 'fake',
      prefix: 'fake/',
      requestType: 'prompt',
      direct: false,
    });
  });
});

describe('FakeModel', () => {
  it('takes its name from the id and carries the settings', () => {
    const m = new FakeModel('fake/echo', 'echo', { effort: 'high', temperature: 0.7, maxTokens: 10 });
    expect(m).toMatchObject({
      id: 'fake/echo',
      name: 'echo',
      provider: 'fake',
      effort: 'high',
      temperature: 0.7,
      maxTokens: 10,
    });
  });

  it('echoes, records requests and reports unknown usage', async () => {
    const m = new FakeModel('fake/echo', 'echo');
    const response = await m.complete({ user: 'hi' });
    expect(response).toEqual({ text: 'hi', usage: { inputTokens: null, outputTokens: null, costUsd: null } });
    expect(m.requests).toEqual([{ user: 'hi' }]);
  });

  it('uses canned replies in order and fails loudly when out', async () => {
    const m = new FakeModel('fake/canned', ['one']);
    expect((await m.complete({ user: 'q' })).text).toBe('one');
    await expect(m.complete({ user: 'q' })).rejects.toThrow(FakeRepliesExhausted);
    expect(m.requests).toHaveLength(2);
  });

  it('throws a canned Error', async () => {
    await expect(new FakeModel('fake/x', [new Error('boom')]).complete({ user: 'q' })).rejects.toThrow(
      'boom',
    );
  });
});

describe('EchoAdapter', () => {
  it('asks for the expected answer as JSON and returns it as the output', async () => {
    const m = new FakeModel('fake/echo', 'echo');
    const reply = await new EchoAdapter().call(kase({ animal: 'cat', legs: 4 }), m);
    expect(reply).toEqual({
      output: { animal: 'cat', legs: 4 },
      raw: '{"animal":"cat","legs":4}',
      usage: { inputTokens: null, outputTokens: null, costUsd: null },
    });
    expect(m.requests).toEqual([
      {
        system: 'Repeat the JSON object you are given, exactly.',
        user: '{"animal":"cat","legs":4}',
        json: true,
      },
    ]);
  });

  it('marks a reply that is not JSON as an error, with no output', async () => {
    const reply = await new EchoAdapter().call(kase({}), new FakeModel('fake/x', ['Sure! Here it is: {']));
    expect(reply.error).toBe('not JSON: Sure! Here it is: {');
    expect(reply.output).toBeUndefined();
    expect(reply.raw).toBe('Sure! Here it is: {');
  });

  it('cuts the quoted text at 80 characters', async () => {
    const reply = await new EchoAdapter().call(kase({}), new FakeModel('fake/x', ['x'.repeat(200)]));
    expect(reply.error).toBe(`not JSON: ${'x'.repeat(80)}`);
  });

  it('lets a transport failure through', async () => {
    await expect(
      new EchoAdapter().call(kase({}), new FakeModel('fake/x', [new Error('reset')])),
    ).rejects.toThrow('reset');
  });
});

describe('Adapter and Scorer defaults', () => {
  class OnlyCall extends Adapter {
    call(_kase: Case, _model: Model): Promise<Reply> {
      return Promise.resolve({});
    }
  }
  class OnlyMetrics extends Scorer {
    metrics() {
      return [{ name: 'score', description: 'the score', primary: true }];
    }
    call(): Score {
      return { value: 0, metrics: {} };
    }
  }

  it('asks nothing more of an adapter than call()', async () => {
    const adapter = new OnlyCall();
    expect(adapter.prepare('d')).toBeUndefined();
    expect(adapter.context(kase({}))).toEqual({});
    expect(await adapter.verify('d')).toEqual([]);
    expect(adapter.metadata()).toEqual({});
  });

  it('asks nothing more of a scorer than metrics() and call()', () => {
    const scorer = new OnlyMetrics();
    expect(scorer.verify(kase({}), {})).toEqual([]);
    expect(scorer.summary(kase({}))).toBe('');
  });
});
