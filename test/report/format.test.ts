import { describe, expect, it } from 'vitest';
import { counted } from '../../src/report/format.ts';

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
