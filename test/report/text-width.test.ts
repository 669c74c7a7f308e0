import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { longestWord, truncateText, visibleWidth, widestGrapheme } from '../../src/report/text-width.ts';

// visibleWidth answers printable ASCII itself and leaves the rest to string-width: both must agree on every text.
describe('visibleWidth', () => {
  it.each([
    [''],
    ['openai/gpt-4o-mini'],
    ['\u001b[32mscored\u001b[39m 12/12'],
    ['tab\there'],
    ['日本語のケース'],
    ['café ☕ done'],
    ['👩‍💻 pair'],
    ['\u001b]8;;https://example.test\u0007link\u001b]8;;\u0007'],
    ['e\u0301 combining'],
  ])('%j is as wide as string-width says', (text) => {
    expect(visibleWidth(text)).toBe(stringWidth(text));
  });

  it('agrees with string-width on random printable ASCII, coloured or not', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 500; i++) {
      let text = '';
      for (let j = next() % 40; j > 0; j--) text += String.fromCharCode(0x20 + (next() % 95));
      const coloured = i % 2 ? `\u001b[1m${text}\u001b[22m` : text;
      expect(visibleWidth(coloured)).toBe(stringWidth(coloured));
    }
  });
});

describe('graphemes of mixed text', () => {
  it('counts wide characters twice and ASCII once, in the same text', () => {
    expect(longestWord('ab 日本 c')).toBe(4);
    expect(widestGrapheme('abc日')).toBe(2);
    expect(widestGrapheme('abc')).toBe(1);
    expect(truncateText('日本語abc', 5)).toBe('日本…');
    expect(truncateText('abcdefgh', 5)).toBe('abcd…');
  });
});

// longestWord and widestGrapheme read plain printable ASCII by character code; coloured, the same text goes through
// the graphemes: both readings must agree, for cell breaks and for prose.
describe('words and graphemes of plain ASCII', () => {
  it('agree with the same text read through its graphemes (coloured)', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const alphabet = 'ab-/_ .:Z9\t';
    for (let i = 0; i < 1000; i++) {
      let text = '';
      for (let j = next() % 30; j > 0; j--) text += alphabet[next() % (alphabet.length - 1)];
      const coloured = `\u001b[1m${text}\u001b[22m`;
      expect(longestWord(text), text).toBe(longestWord(coloured));
      expect(longestWord(text, /\s/), text).toBe(longestWord(coloured, /\s/));
      expect(widestGrapheme(text), text).toBe(widestGrapheme(coloured));
    }
  });

  it.each([
    ['openai/gpt-4o-mini', 7],
    ['two  words', 5],
    ['a-b-c', 2],
    ['', 0],
  ])('longestWord(%j) is %d', (text, width) => {
    expect(longestWord(text)).toBe(width);
  });
});
