import { describe, expect, it } from 'vitest';
import { grantSlot, newGate } from '../../src/core/coordinator.ts';
import { missingKeysOf, noteCannotCall, type MissingKey } from '../../src/core/missing-key.ts';

const openai: MissingKey = { envVar: 'OPENAI_API_KEY', contender: 'openai/gpt-x' };
const lan: MissingKey = { provider: 'lan', contender: 'lan/m' };

/** A gate told `notes` in order, each `[what, at, seconds]`. */
function told(...notes: [MissingKey, number, number][]) {
  const gate = newGate({});
  for (const [missing, at, seconds] of notes) noteCannotCall(gate, missing, at, seconds);
  return gate;
}

describe("the gate's word that workers cannot call a contender", () => {
  it.each<{ name: string; gate: ReturnType<typeof told>; now: number; expected: MissingKey[] }>([
    { name: 'none told', gate: told(), now: 1000, expected: [] },
    { name: 'a missing key, standing', gate: told([openai, 1000, 45]), now: 45_999, expected: [openai] },
    { name: 'a missing key, lapsed', gate: told([openai, 1000, 45]), now: 46_000, expected: [] },
    { name: 'a provider this worker does not know', gate: told([lan, 0, 45]), now: 1000, expected: [lan] },
    {
      name: 'told again: the later word stands',
      gate: told([lan, 0, 45], [lan, 40_000, 45]),
      now: 60_000,
      expected: [lan],
    },
    {
      name: 'keys and providers together, by contender',
      gate: told([lan, 0, 45], [openai, 0, 45], [{ envVar: 'A_KEY', contender: 'acme/m' }, 0, 45]),
      now: 1000,
      expected: [{ envVar: 'A_KEY', contender: 'acme/m' }, lan, openai],
    },
    {
      name: 'two keys one contender lacks, each said',
      gate: told([openai, 0, 45], [{ envVar: 'B_KEY', contender: 'openai/gpt-x' }, 0, 45]),
      now: 1000,
      expected: [{ envVar: 'B_KEY', contender: 'openai/gpt-x' }, openai],
    },
    {
      name: "a gate told by a worker before the signal: its vendor window still says it, a vendor's does not",
      gate: {
        ...newGate({}),
        closedUntil: { 'missing key OPENAI_API_KEY openai/gpt-x': 2000, openai: 5000 },
      },
      now: 1000,
      expected: [openai],
    },
  ])('$name', ({ gate, now, expected }) => {
    expect(missingKeysOf(gate, now)).toEqual(expected);
  });

  it('keeps only the words still standing, so the state stays small', () => {
    const gate = told([lan, 0, 45], [openai, 50_000, 45]);
    expect(Object.values(gate.cannotCall ?? {}).map((n) => n.contender)).toEqual(['openai/gpt-x']);
  });

  it('holds back no call', () => {
    const gate = told([openai, 0, 60]);
    expect(grantSlot(gate, { keys: [], vendor: 'openai', model: 'openai:openai/gpt-x' }, 1000)).toEqual({
      startAt: 1000,
    });
  });
});
