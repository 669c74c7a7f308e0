import { describe, expect, it } from 'vitest';
import { fnv1a } from '../../src/core/fnv.ts';

describe('fnv1a', () => {
  // The published FNV-1a 32-bit test vectors (Fowler, Noll, Vo: "FNV test vectors", fnv1a32 of the ASCII strings),
  // and a code unit above 0xff, which the hash takes whole (as the sandbox's charCodeAt gives it).
  it.each([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['b', 0xe70c2de5],
    ['foobar', 0xbf9cf968],
    ['chongo was here!\n', 0xd49930d5],
  ])('fnv1a(%j) = %i', (text, hash) => {
    expect(fnv1a(text)).toBe(hash);
  });

  it('is an unsigned 32-bit integer for long texts', () => {
    const hash = fnv1a('x'.repeat(10_000));
    expect(Number.isInteger(hash) && hash >= 0 && hash < 2 ** 32).toBe(true);
  });
});
