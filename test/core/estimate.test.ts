import { describe, expect, it } from 'vitest';
import {
  estimateConversationTokens,
  estimateReplyTokens,
  estimateRequestTokens,
  estimateTokens,
  guessedVerdictTokens,
  judgeEstimate,
  expectedReplyTokens,
  measuredVerdictTokens,
  REASONING_TOKENS,
} from '../../src/core/estimate.ts';

describe('estimateTokens: the rule byte-pair tokenizers follow', () => {
  it.each([
    ['', 0],
    ['cat', 1],
    ['The quick brown fox jumps.', 6], // a word each (a space joins the word after it), the full stop
    ['internationalization', 4], // a long word splits, a token per five letters
    ['12345678', 4], // digits two to a token
    ['{"animal":"cat","legs":4}', 10], // {" animal ":" cat "," legs ": 4 }
    ['{\n  "legs": 4\n}', 8], // { newline-and-indent " legs ": 4 newline }
    ['a  b', 3], // a run of blanks that is not one space is a token of its own
  ])('%j is %i tokens', (text, tokens) => {
    expect(estimateTokens(text)).toBe(tokens);
  });
});

describe('what a provider bills', () => {
  it.each([
    ['a reply: its text and the token that ended it', estimateReplyTokens('four words of reply'), 5],
    [
      'a request: each message with 4 markers, and 3 to open the reply',
      estimateRequestTokens({ system: 'hi', user: 'there' }),
      1 + 4 + 1 + 4 + 3,
    ],
    ['a request without a system prompt', estimateRequestTokens({ user: 'there' }), 1 + 4 + 3],
  ])('%s', (_what, got, want) => {
    expect(got).toBe(want);
  });
});

describe('expectedReplyTokens: the reply a case should get, from its expected answer', () => {
  it.each([
    [
      'an object, written indented as chat models write JSON',
      { legs: 4 },
      estimateReplyTokens('{\n  "legs": 4\n}'),
    ],
    ['a text answer, as is', 'a cat', estimateReplyTokens('a cat')],
    ['a list', [1, 2], estimateReplyTokens('[\n  1,\n  2\n]')],
  ])('%s', (_what, expected, tokens) => {
    expect(expectedReplyTokens(expected)).toBe(tokens);
  });

  it('grows with the answer, never a constant', () => {
    const small = expectedReplyTokens({ name: 'Ana' });
    const big = expectedReplyTokens({ name: 'Ana', age: 34, city: 'Lisbon', job: 'baker' });
    expect(big).toBeGreaterThan(small + 6);
  });
});

describe('judgeEstimate', () => {
  it.each<[string, Parameters<typeof judgeEstimate>, ReturnType<typeof judgeEstimate>]>([
    [
      'one judge, one sample',
      [
        { replies: 10, samples: 1, members: 1 },
        { verdicts: 1000, perVerdict: 60 },
        [{ inputPrice: 1e-6, outputPrice: 2e-6 }],
      ],
      { calls: 10, inputTokens: 1000, outputTokens: 600, costUsd: 0.0022 },
    ],
    [
      'a panel of two, three samples',
      [
        { replies: 2, samples: 3, members: 2 },
        { verdicts: 100, perVerdict: 60 },
        [
          { inputPrice: 1e-6, outputPrice: 1e-6 },
          { inputPrice: 0, outputPrice: 0 },
        ],
      ],
      { calls: 12, inputTokens: 600, outputTokens: 720, costUsd: 0.00066 },
    ],
    [
      'a judge without prices',
      [
        { replies: 1, samples: 1, members: 2 },
        { verdicts: 50, perVerdict: 60 },
        [{ inputPrice: 1e-6, outputPrice: 1e-6 }, undefined],
      ],
      { calls: 2, inputTokens: 100, outputTokens: 120, costUsd: null },
    ],
    [
      'pairwise: two readings per pair and judge, not multiplied by the samples',
      [
        { replies: 2, samples: 3, members: 2, pairs: 2 },
        { verdicts: 100, pairs: 400, perVerdict: 10 },
        [
          { inputPrice: 1e-6, outputPrice: 1e-6 },
          { inputPrice: 1e-6, outputPrice: 1e-6 },
        ],
      ],
      // Per judge: 2 × 3 verdicts + 2 pairs × 2 orders = 10 calls, 300 + 400 tokens in, 100 out.
      { calls: 20, inputTokens: 1400, outputTokens: 200, costUsd: 0.0016 },
    ],
    [
      "a verdict's measured tokens need not be whole",
      [{ replies: 9, samples: 1, members: 1 }, { verdicts: 90, perVerdict: 129 / 9 }, [undefined]],
      { calls: 9, inputTokens: 90, outputTokens: 129, costUsd: null },
    ],
  ])('%s', (_what, args, expected) => {
    const e = judgeEstimate(...args);
    expect({ ...e, costUsd: e.costUsd === null ? null : Number(e.costUsd.toFixed(8)) }).toEqual(expected);
  });
});

describe("a verdict's tokens", () => {
  it('are guessed from the verdict JSON: its frame and score as written, and a short sentence of reasoning', () => {
    const frame = estimateReplyTokens('{"reasoning":"","score":"pass"}');
    expect(guessedVerdictTokens('pass')).toBe(frame + REASONING_TOKENS);
    expect(guessedVerdictTokens(10)).toBe(
      estimateReplyTokens('{"reasoning":"","score":10}') + REASONING_TOKENS,
    );
  });

  it.each<[string, { diagnostics: Record<string, number> }[], number | undefined]>([
    ['no run judged', [{ diagnostics: {} }], undefined],
    ['calls made', [{ diagnostics: { judge_calls: 2, judge_tokens_out: 30 } }], 15],
    [
      'verdicts from the cache count their tokens as calls do',
      [
        { diagnostics: { judge_calls: 1, judge_cached: 2, judge_tokens_out: 45 } },
        { diagnostics: { judge_calls: 0, judge_cached: 1, judge_tokens_out: 15 } },
      ],
      15,
    ],
    ['a provider that said no tokens', [{ diagnostics: { judge_calls: 3 } }], undefined],
  ])('are measured in a saved run: %s', (_what, results, want) => {
    expect(measuredVerdictTokens(results)).toBe(want);
  });
});

describe('estimateConversationTokens: a conversation billed whole', () => {
  it.each<[string, Parameters<typeof estimateConversationTokens>[0], number]>([
    ['no messages: as estimateRequestTokens', { system: 'hi', user: 'there' }, 1 + 4 + 1 + 4 + 3],
    [
      'each message with its markers, the system prompt once, not the last user message twice',
      { system: 'hi', user: 'there', messages: [{ role: 'user', content: 'there' }] },
      1 + 4 + 1 + 4 + 3,
    ],
    [
      "an assistant's tool calls as JSON, a tool's result as text",
      {
        user: 'x',
        messages: [
          { role: 'user', content: 'x' },
          { role: 'assistant', toolCalls: [{ id: 'c', name: 'f', arguments: {} }] },
          { role: 'tool', toolCallId: 'c', content: 'ok' },
        ],
      },
      3 + (1 + 4) + (estimateTokens('[{"id":"c","name":"f","arguments":{}}]') + 4) + (1 + 4),
    ],
  ])('%s', (_what, request, want) => {
    expect(estimateConversationTokens(request)).toBe(want);
  });
});
