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
