import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../src/suite/cases.ts';
import { keyOf } from '../../src/suite/conversation.ts';
import { TempDirs, writeTree } from '../helpers/suite-dir.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const CONVERSATION = {
  messages: [
    { role: 'system', content: 'You book trips.' },
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Paris' } }] },
    { role: 'tool', content: '18', toolCallId: 'c1' },
    { role: 'user', content: 'And tomorrow?' },
  ],
};
const EXPECTED = { tool_calls: [{ name: 'weather', arguments: { city: 'Paris', day: 1 } }], answer: 'mild' };

const suite = (files: Record<string, string>) => writeTree(dirs.os(), files);

describe('conversation cases (input.json)', () => {
  it('reads the messages into kase.messages, beside cases with input.txt', () => {
    const root = suite({
      'datasets/trips/cases/talk/input.json': JSON.stringify(CONVERSATION),
      'datasets/trips/cases/talk/expected.json': JSON.stringify(EXPECTED),
      'datasets/trips/cases/plain/input.txt': 'hello',
      'datasets/trips/cases/plain/expected.json': '{}',
    });
    const { cases, problems } = loadCases(root);
    expect(problems).toEqual([]);
    expect(cases.map((c) => c.key)).toEqual(['trips/plain', 'trips/talk']);
    expect(cases[1]).toMatchObject({
      id: 'talk',
      messages: CONVERSATION.messages,
      expected: EXPECTED,
      path: join(root, 'datasets/trips/cases/talk'),
    });
    expect(cases[0]).not.toHaveProperty('messages');
  });

  it.each<[string, string, string, string, RegExp]>([
    ['no messages', JSON.stringify({ turns: [] }), 'input.json', 'messages', /missing/],
    ['messages not a list', JSON.stringify({ messages: 'hi' }), 'input.json', 'messages', /list/],
    ['no message', JSON.stringify({ messages: [] }), 'input.json', 'messages', /at least one/],
    [
      'an unknown role',
      JSON.stringify({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'bot', content: 'b' },
        ],
      }),
      'input.json',
      'messages[1].role',
      /unknown role "bot" \(roles: system, user, assistant, tool\)/,
    ],
    [
      'a typo in a message key',
      JSON.stringify({ messages: [{ role: 'user', contents: 'a' }] }),
      'input.json',
      'messages[0].contents',
      /not a key/,
    ],
    ['not JSON', '{"messages": [', 'input.json', '', /not valid JSON/],
  ])('refuses an input.json with %s, naming file and key', (_, input, file, key, problem) => {
    const root = suite({
      'datasets/d/cases/bad/input.json': input,
      'datasets/d/cases/bad/expected.json': '{}',
      'datasets/d/cases/ok/input.txt': 'x',
      'datasets/d/cases/ok/expected.json': '{}',
    });
    const { cases, problems } = loadCases(root);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.file).toBe(join(root, 'datasets/d/cases/bad', file));
    expect(problems[0]!.key ?? '').toBe(key);
    expect(problems[0]!.problem).toMatch(problem);
    expect(cases.map((c) => c.id)).toEqual(['ok']);
  });

  it.each<[string, unknown, string, RegExp]>([
    ['not a list', { name: 'f', arguments: {} }, 'tool_calls', /array/],
    ['a call without arguments', [{ name: 'f' }], 'tool_calls[0].arguments', /got nothing/],
    [
      'arguments that are a list',
      [
        { name: 'f', arguments: [] },
        { name: 'g', arguments: [1] },
      ],
      'tool_calls[0].arguments',
      /got \[\]/,
    ],
    [
      'a call without a name',
      [{ name: 'f', arguments: {} }, { arguments: {} }],
      'tool_calls[1].name',
      /got nothing/,
    ],
  ])('refuses expected.tool_calls %s, naming file and key', (_, toolCalls, key, problem) => {
    const root = suite({
      'datasets/d/cases/bad/input.txt': 'x',
      'datasets/d/cases/bad/expected.json': JSON.stringify({ tool_calls: toolCalls }),
    });
    const { cases, problems } = loadCases(root);
    expect(problems.map(({ file, key }) => ({ file, key }))).toEqual([
      { file: join(root, 'datasets/d/cases/bad/expected.json'), key },
    ]);
    expect(problems[0]!.problem).toMatch(problem);
    expect(cases).toEqual([]);
  });

  it('refuses a folder with both input.txt and input.json', () => {
    const root = suite({
      'datasets/d/cases/both/input.txt': 'x',
      'datasets/d/cases/both/input.json': JSON.stringify(CONVERSATION),
      'datasets/d/cases/both/expected.json': '{}',
    });
    expect(loadCases(root).problems).toEqual([
      {
        file: join(root, 'datasets/d/cases/both'),
        problem: 'a case folder with both input.txt and input.json',
      },
    ]);
  });
});

describe('keyOf', () => {
  it.each<[PropertyKey[], string]>([
    [['messages', 2, 'role'], 'messages[2].role'],
    [['tool_calls', 0], 'tool_calls[0]'],
    [[], ''],
  ])('%j → %s', (path, key) => {
    expect(keyOf(path)).toBe(key);
  });
});
