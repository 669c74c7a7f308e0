import { describe, expect, it } from 'vitest';
import type { CompletionRequest, Message } from '../../src/api/types.ts';
import { completionRequestOf } from '../../src/api/conversation.ts';
import { toolCallsOf, toolFields, wireMessage, wireMessages } from '../../src/providers/tool-wire.ts';

const CALL = { id: 'c1', name: 'lookup', arguments: { city: 'Paris' } };

describe('wireMessage', () => {
  it.each<[string, Message, unknown]>([
    ['system', { role: 'system', content: 's' }, { role: 'system', content: 's' }],
    ['user', { role: 'user', content: 'u' }, { role: 'user', content: 'u' }],
    ['user without content', { role: 'user' }, { role: 'user', content: '' }],
    [
      'assistant with a tool call',
      { role: 'assistant', toolCalls: [CALL] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"city":"Paris"}' } },
        ],
      },
    ],
    [
      'assistant whose arguments were not JSON: sent back as the model wrote them',
      { role: 'assistant', content: 'x', toolCalls: [{ ...CALL, arguments: {}, argumentsText: '{city' }] },
      {
        role: 'assistant',
        content: 'x',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{city' } }],
      },
    ],
    ['assistant text', { role: 'assistant', content: 'done' }, { role: 'assistant', content: 'done' }],
    [
      'tool result',
      { role: 'tool', content: '18°C', toolCallId: 'c1' },
      { role: 'tool', content: '18°C', tool_call_id: 'c1' },
    ],
  ])('%s', (_, message, wire) => {
    expect(wireMessage(message)).toEqual(wire);
  });
});

describe('wireMessages and toolFields', () => {
  it.each<[string, CompletionRequest, unknown[]]>([
    [
      'system + user',
      { system: 's', user: 'u' },
      [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
      ],
    ],
    [
      'messages win over user',
      { user: 'u', messages: [{ role: 'user', content: 'm' }] },
      [{ role: 'user', content: 'm' }],
    ],
    [
      'system before messages',
      { system: 's', user: '', messages: [{ role: 'user', content: 'm' }] },
      [
        { role: 'system', content: 's' },
        { role: 'user', content: 'm' },
      ],
    ],
  ])('%s', (_, request, wire) => {
    expect(wireMessages(request)).toEqual(wire);
  });

  it.each<[string, Partial<CompletionRequest>, unknown]>([
    ['no tools', {}, {}],
    ['empty tools', { tools: [] }, {}],
    [
      'a tool and auto',
      { tools: [{ name: 'f', description: 'd', parameters: { type: 'object' } }], toolChoice: 'auto' },
      {
        tools: [
          { type: 'function', function: { name: 'f', description: 'd', parameters: { type: 'object' } } },
        ],
        tool_choice: 'auto',
      },
    ],
    [
      'a named choice, no description',
      { tools: [{ name: 'f', parameters: {} }], toolChoice: { name: 'f' } },
      {
        tools: [{ type: 'function', function: { name: 'f', parameters: {} } }],
        tool_choice: { type: 'function', function: { name: 'f' } },
      },
    ],
  ])('%s', (_, request, fields) => {
    expect(toolFields({ user: '', ...request })).toEqual(fields);
  });
});

describe('toolCallsOf', () => {
  const fn = (name: unknown, args: unknown, id: unknown = 'c1') => ({
    id,
    type: 'function',
    function: { name, arguments: args },
  });
  it.each<[string, unknown, unknown]>([
    ['no message', undefined, []],
    ['no calls', { content: 'hi' }, []],
    ['null calls', { tool_calls: null }, []],
    ['one call', { tool_calls: [fn('f', '{"a":1}')] }, [{ id: 'c1', name: 'f', arguments: { a: 1 } }]],
    ['empty argument text', { tool_calls: [fn('f', '')] }, [{ id: 'c1', name: 'f', arguments: {} }]],
    [
      'arguments already an object',
      { tool_calls: [fn('f', { a: 1 })] },
      [{ id: 'c1', name: 'f', arguments: { a: 1 } }],
    ],
    [
      'arguments not JSON',
      { tool_calls: [fn('f', '{a:')] },
      [{ id: 'c1', name: 'f', arguments: {}, argumentsText: '{a:' }],
    ],
    [
      'arguments a JSON array',
      { tool_calls: [fn('f', '[1]')] },
      [{ id: 'c1', name: 'f', arguments: {}, argumentsText: '[1]' }],
    ],
    ['no id: numbered', { tool_calls: [fn('f', '{}', null)] }, [{ id: 'call_0', name: 'f', arguments: {} }]],
    [
      'no name: dropped',
      { tool_calls: [fn(undefined, '{}'), fn('g', '{}', 'c2')] },
      [{ id: 'c2', name: 'g', arguments: {} }],
    ],
  ])('%s', (_, message, calls) => {
    expect(toolCallsOf(message)).toEqual(calls);
  });
});

describe('completionRequestOf', () => {
  it.each<[string, Parameters<typeof completionRequestOf>[0], string]>([
    ['a user text stays', { user: 'u', messages: [{ role: 'user', content: 'm' }] }, 'u'],
    [
      'a conversation gives its last user message',
      {
        messages: [
          { role: 'user', content: 'first' },
          { role: 'assistant', content: 'a' },
          { role: 'user', content: 'last' },
          { role: 'tool', content: 't', toolCallId: 'c' },
        ],
      },
      'last',
    ],
    ['no user message', { messages: [{ role: 'system', content: 's' }] }, ''],
  ])('%s', (_, request, user) => {
    expect(completionRequestOf(request)).toEqual({ ...request, user });
  });
});
