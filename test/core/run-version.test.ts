import { describe, expect, it } from 'vitest';
import { whoFinishes } from '../../src/core/run-version.ts';

describe('which llm-evals may finish a run', () => {
  it.each<[string | undefined, string, ReturnType<typeof whoFinishes>]>([
    [undefined, '0.2.0', { ok: true }],
    ['0.1.0', '0.2.0', { ok: true }],
    ['0.2.0', '0.2.0', { ok: true }],
    ['0.2.3', '0.2.0', { ok: true }],
    ['0.3.0', '0.2.5', { ok: false, use: '0.3.0' }],
    ['1.0.0', '0.9.0', { ok: false, use: '1.0.0' }],
    ['1.4.0', '1.2.0', { ok: true }],
    ['2.0.0', '1.9.9', { ok: false, use: '2.0.0' }],
    ['0.0.9', '0.2.0', { ok: false, use: '0.0.9' }],
  ])('started by %s, this is %s', (startedBy, ours, expected) => {
    expect(whoFinishes(startedBy, ours)).toEqual(expected);
  });
});
