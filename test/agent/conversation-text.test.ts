import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/api/types.ts';
import { conversationOf, conversationSummary, conversationText } from '../../src/report/conversation.ts';

const TRIP: Message[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'assistant', toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Paris' } }] },
  { role: 'tool', content: '18 °C', toolCallId: 'c1' },
  { role: 'user', content: 'And   then book\na hotel there, please, for two nights in May' },
];

describe('a conversation case as text', () => {
  it.each([
    ['an input.json', JSON.stringify({ messages: TRIP }), TRIP],
    ['plain text', 'What is 2 + 2?', undefined],
    ['JSON without messages', '{"question": 1}', undefined],
    ['an empty conversation', '{"messages": []}', undefined],
    ['a role the API does not know', '{"messages": [{"role": "robot", "content": "x"}]}', undefined],
    ['broken JSON', '{"messages": [', undefined],
  ])('reads %s', (_, input, want) => {
    expect(conversationOf(input)).toEqual(want);
  });

  it('writes a message a line: role, the call a tool result answers, the calls made', () => {
    expect(conversationText(TRIP).split('\n')).toEqual(
      [
        'system: Be brief.',
        'user: Weather in Paris?',
        'assistant: → weather({"city":"Paris"})',
        'tool (c1): 18 °C',
        'user: And   then book\na hotel there, please, for two nights in May',
      ].flatMap((l) => l.split('\n')),
    );
  });

  it.each([
    [
      'five messages, the last user one cut',
      TRIP,
      '5 messages, user: "And then book a hotel there, please, fo…"',
    ],
    ['one', [{ role: 'user', content: 'Hi' }] as Message[], '1 message, user: "Hi"'],
    ['no user message', [{ role: 'system', content: 'x' }] as Message[], '1 message'],
  ])('sums a conversation up in one line: %s', (_, messages, want) => {
    expect(conversationSummary(messages)).toBe(want);
  });
});
