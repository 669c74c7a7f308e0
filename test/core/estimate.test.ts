import { describe, expect, it } from 'vitest';
import {
  estimateReplyTokens,
  estimateRequestTokens,
  estimateTokens,
  judgeEstimate,
  expectedReplyTokens,
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
      [{ replies: 10, samples: 1, members: 1 }, 1000, [{ inputPrice: 1e-6, outputPrice: 2e-6 }]],
      { calls: 10, inputTokens: 1000, outputTokens: 600, costUsd: 0.0022 },
    ],
    [
      'a panel of two, three samples',
      [
        { replies: 2, samples: 3, members: 2 },
        100,
        [
          { inputPrice: 1e-6, outputPrice: 1e-6 },
          { inputPrice: 0, outputPrice: 0 },
        ],
      ],
      { calls: 12, inputTokens: 600, outputTokens: 720, costUsd: 0.00066 },
    ],
    [
      'a judge without prices',
      [{ replies: 1, samples: 1, members: 2 }, 50, [{ inputPrice: 1e-6, outputPrice: 1e-6 }, undefined]],
      { calls: 2, inputTokens: 100, outputTokens: 120, costUsd: null },
    ],
  ])('%s', (_what, args, expected) => {
    const e = judgeEstimate(...args);
    expect({ ...e, costUsd: e.costUsd === null ? null : Number(e.costUsd.toFixed(8)) }).toEqual(expected);
  });
});
