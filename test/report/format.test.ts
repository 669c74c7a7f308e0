import { describe, expect, it } from 'vitest';
import { counted, formatCount } from '../../src/report/format.ts';

describe('counted', () => {
  it.each([
    [0, 'case', '0 cases'],
    [1, 'case', '1 case'],
    [1, 'contender', '1 contender'],
    [2, 'dataset', '2 datasets'],
    [1200, 'call', '1,200 calls'],
  ])('%i %s → %s', (n, noun, text) => {
    expect(counted(n, noun)).toBe(text);
  });
});

describe('formatCount', () => {
  it.each([
    [null, '?'],
    [undefined, '?'],
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [12345.6, '12,346'],
    [-1234567, '-1,234,567'],
    [-999.4, '-999'],
    [Number.MAX_SAFE_INTEGER, '9,007,199,254,740,991'],
    [1e21, '1,000,000,000,000,000,000,000'],
    [Infinity, '∞'],
  ])('%s → %s', (n, text) => {
    expect(formatCount(n)).toBe(text);
  });

  it('groups as en-US does, for every size of number', () => {
    for (let digits = 1; digits <= 16; digits++) {
      for (const n of [10 ** (digits - 1), 10 ** digits - 1, Math.floor(10 ** digits / 3)]) {
        expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
        expect(formatCount(-n)).toBe((-n).toLocaleString('en-US'));
      }
    }
  });
});
