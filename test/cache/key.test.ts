import { describe, expect, it } from 'vitest';
import { canonicalJson, replyKey, type ReplyKeyParts } from '../../src/cache/key.ts';

const BASE: ReplyKeyParts = {
  provider: 'local-llm',
  scope: 'http://127.0.0.1:1234/v1',
  model: { id: 'local-llm/echo', name: 'echo', provider: 'local-llm', temperature: 0.2, maxTokens: 512 },
  request: { system: 'Repeat.', user: '{"a": 1}', json: true },
};

describe('canonicalJson', () => {
  it.each<[string, unknown, string]>([
    ['sorts keys at every depth', { b: 1, a: { d: 2, c: 3 } }, '{"a":{"c":3,"d":2},"b":1}'],
    ['leaves out undefined fields and functions', { a: undefined, f: () => 1, b: null }, '{"b":null}'],
    ['keeps array order, undefined as null', [3, undefined, 1], '[3,null,1]'],
    ['writes scalars as JSON', 'x"y', '"x\\"y"'],
  ])('%s', (_, value, want) => {
    expect(canonicalJson(value)).toBe(want);
  });
});

describe('replyKey', () => {
  const key = replyKey(BASE);

  it('is a sha256 in hex, the same for the same parts in any key order', () => {
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const reordered = { ...BASE, request: { json: true, user: '{"a": 1}', system: 'Repeat.' } };
    expect(replyKey(reordered)).toBe(key);
  });

  it('ignores the model’s complete function', () => {
    const model = { ...BASE.model, complete: () => Promise.resolve('x') };
    expect(replyKey({ ...BASE, model })).toBe(key);
  });

  it.each<[string, Partial<ReplyKeyParts>]>([
    ['another provider', { provider: 'other' }],
    ['another endpoint', { scope: 'http://127.0.0.1:9999/v1' }],
    ['no endpoint', { scope: undefined }],
    ['another model', { model: { ...BASE.model, id: 'local-llm/other', name: 'other' } }],
    ['another temperature', { model: { ...BASE.model, temperature: 0.3 } }],
    ['another max tokens', { model: { ...BASE.model, maxTokens: 256 } }],
    ['an effort', { model: { ...BASE.model, effort: 'low' } }],
    ['a seed', { model: { ...BASE.model, seed: 1 } }],
    ['another user message', { request: { ...BASE.request, user: '{"a": 2}' } }],
    ['another system message', { request: { ...BASE.request, system: 'Echo.' } }],
    ['no JSON mode', { request: { ...BASE.request, json: false } }],
    ['tools sent', { request: { ...BASE.request, tools: [{ name: 'lookup' }] } }],
    ['a conversation', { request: { ...BASE.request, messages: [{ role: 'user', content: 'hi' }] } }],
    [
      'a tool result further in the conversation',
      {
        request: {
          ...BASE.request,
          messages: [
            { role: 'user', content: 'hi' },
            { role: 'assistant', toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] },
            { role: 'tool', content: '18', toolCallId: 'c1' },
          ],
        },
      },
    ],
    ['a tool choice', { request: { ...BASE.request, toolChoice: 'required' } }],
    ['repeat 1', { repeat: 1 }],
    ['repeat 2', { repeat: 2 }],
  ])('changes with %s', (_, change) => {
    expect(replyKey({ ...BASE, ...change })).not.toBe(key);
  });

  it('tells repeats apart from each other', () => {
    const keys = [1, 2, 3].map((repeat) => replyKey({ ...BASE, repeat }));
    expect(new Set(keys).size).toBe(3);
  });
});
