import { describe, expect, it } from 'vitest';
import { contenderKey } from '../../src/core/matrix.ts';
import { renderFlips } from '../../src/report/schedule-text.ts';
import { stripAnsi } from '../../src/report/text-width.ts';

const base = { provider: 'fake', id: 'fake/beta', effort: 'default', temperature: null, maxTokens: null };
const beta = { ...base, key: contenderKey(base), model: 'beta', limits: [] };
const flip = (caseKey: string, flips: number, right: boolean) => ({
  contender: beta.key,
  dataset: 'd',
  caseKey,
  flips,
  runs: 5,
  right,
});

describe('renderFlips (schedule show --flaky)', () => {
  it.each<[string, Parameters<typeof renderFlips>[0], string[]]>([
    [
      'one run',
      { runs: 1, cases: [] },
      ['flaky cases: none can flip over the last 1 judged run; it takes two'],
    ],
    [
      'none flipped',
      { runs: 5, cases: [] },
      ['flaky cases: no case flipped between right and wrong over the last 5 judged runs'],
    ],
    [
      'two cases, most flips first as given, named by contender',
      { runs: 5, cases: [flip('d/7', 3, false), flip('d/2', 1, true)] },
      [
        'flaky cases: 2 flipped between right and wrong over the last 5 judged runs, most flips first:',
        /│ case\s+│ contender\s+│ flips │ runs │ last/,
        /│ d\/7\s+│ fake\/beta\s+│\s+3 │\s+5 │ wrong/,
        /│ d\/2\s+│ fake\/beta\s+│\s+1 │\s+5 │ right/,
      ].map(String),
    ],
  ])('%s', (_, flaky, expected) => {
    const lines = stripAnsi(renderFlips(flaky, [beta])).split('\n');
    expected.forEach((want) => {
      const pattern = want.startsWith('/') ? new RegExp(want.slice(1, -1)) : undefined;
      expect(
        lines.some((l) => (pattern ? pattern.test(l) : l === want)),
        `${want} in\n${lines.join('\n')}`,
      ).toBe(true);
    });
  });

  it('lists the first 20 and says how many flipped', () => {
    const cases = Array.from({ length: 23 }, (_, i) => flip(`d/${i}`, 1, true));
    const text = stripAnsi(renderFlips({ runs: 3, cases }, [beta]));
    expect(text.split('\n')[0]).toBe(
      'flaky cases: 23 flipped between right and wrong over the last 3 judged runs, most flips first (the first 20):',
    );
    expect(text).toContain('d/19 ');
    expect(text).not.toContain('d/20 ');
  });
});
