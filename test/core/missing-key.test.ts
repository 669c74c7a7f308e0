import { describe, expect, it } from 'vitest';
import { closeVendor, grantSlot, newGate } from '../../src/core/coordinator.ts';
import { missingKeysOf, missingKeyWindow, missingProviderWindow } from '../../src/core/missing-key.ts';

describe('missing keys told to the gate', () => {
  it.each([
    { name: 'none told', windows: {}, now: 1000, expected: [] },
    {
      name: 'one standing',
      windows: { [missingKeyWindow('OPENAI_API_KEY', 'openai/gpt-x')]: 2000 },
      now: 1000,
      expected: [{ envVar: 'OPENAI_API_KEY', contender: 'openai/gpt-x' }],
    },
    {
      name: 'one lapsed',
      windows: { [missingKeyWindow('OPENAI_API_KEY', 'openai/gpt-x')]: 1000 },
      now: 1000,
      expected: [],
    },
    {
      name: 'vendor windows are not keys',
      windows: { openai: 5000, 'lan:m': 5000 },
      now: 1000,
      expected: [],
    },
    {
      name: 'sorted by contender, a contender id with spaces kept whole',
      windows: {
        [missingKeyWindow('Z_KEY', 'zed/m (low)')]: 9000,
        [missingKeyWindow('A_KEY', 'acme/m')]: 9000,
      },
      now: 1000,
      expected: [
        { envVar: 'A_KEY', contender: 'acme/m' },
        { envVar: 'Z_KEY', contender: 'zed/m (low)' },
      ],
    },
    {
      name: 'a provider the worker does not know',
      windows: { [missingProviderWindow('lan', 'lan/m')]: 2000 },
      now: 1000,
      expected: [{ provider: 'lan', contender: 'lan/m' }],
    },
    {
      name: 'a provider lapsed',
      windows: { [missingProviderWindow('lan', 'lan/m')]: 1000 },
      now: 1000,
      expected: [],
    },
    {
      name: 'keys and providers together, by contender',
      windows: {
        [missingProviderWindow('lan', 'lan/m')]: 9000,
        [missingKeyWindow('A_KEY', 'acme/m')]: 9000,
      },
      now: 1000,
      expected: [
        { envVar: 'A_KEY', contender: 'acme/m' },
        { provider: 'lan', contender: 'lan/m' },
      ],
    },
  ])('$name', ({ windows, now, expected }) => {
    expect(missingKeysOf({ closedUntil: windows }, now)).toEqual(expected);
  });

  it('holds back no call: no vendor or model is named like a missing key', () => {
    const gate = newGate({});
    closeVendor(gate, missingKeyWindow('OPENAI_API_KEY', 'openai/gpt-x'), 60_000);
    expect(grantSlot(gate, { keys: [], vendor: 'openai', model: 'openai:openai/gpt-x' }, 1000)).toEqual({
      startAt: 1000,
    });
  });
});
