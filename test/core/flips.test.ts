import { describe, expect, it } from 'vitest';
import { flipsAcrossRuns } from '../../src/core/consistency.ts';
import { contenderKey, repeatContenders } from '../../src/core/matrix.ts';
import type { RunDigest } from '../../src/core/run-change.ts';

const contender = (id: string) => {
  const base = { provider: 'fake', id, effort: 'default', temperature: null, maxTokens: null };
  return { ...base, key: contenderKey(base), model: id.split('/')[1]!, limits: [] };
};
const A = contender('fake/alpha');
const B = contender('fake/beta');

type Run = Pick<RunDigest, 'contenders' | 'cases' | 'perCase'>;
const HASHES = { d: { 'd/1': 'h1', 'd/2': 'h2', 'd/3': 'h3' } };

/** A run where each contender has the given values per case, on dataset `d`. */
const run = (
  values: Record<string, Record<string, number | null>>,
  cases: Run['cases'] = HASHES,
  contenders = [A, B],
): Run => ({
  contenders,
  cases,
  perCase: Object.entries(values).map(([key, v]) => ({
    contender: key,
    dataset: 'd',
    values: v,
    replies: {},
  })),
});

// Each row's expected counts were tallied by hand from the runs' outcomes, oldest first (1 right, else wrong).
describe('the cases that flipped most over runs (schedule show --flaky)', () => {
  it.each<[string, Run[], ReturnType<typeof flipsAcrossRuns>]>([
    ['no run', [], []],
    ['one run: nothing to flip from', [run({ [A.key]: { 'd/1': 1, 'd/2': 0 } })], []],
    [
      'steady cases are not listed; 1 0 1 0 is three flips, 1 1 0 one',
      [
        run({ [A.key]: { 'd/1': 1, 'd/2': 1, 'd/3': 0 } }),
        run({ [A.key]: { 'd/1': 0, 'd/2': 1, 'd/3': 0 } }),
        run({ [A.key]: { 'd/1': 1, 'd/2': 0, 'd/3': 0 } }),
        run({ [A.key]: { 'd/1': 0, 'd/2': 0, 'd/3': 0 } }),
      ],
      [
        { contender: A.key, dataset: 'd', caseKey: 'd/1', flips: 3, runs: 4, right: false },
        { contender: A.key, dataset: 'd', caseKey: 'd/2', flips: 1, runs: 4, right: false },
      ],
    ],
    [
      'most flips first, then contender and case key; per contender',
      [
        run({ [A.key]: { 'd/2': 1, 'd/1': 1 }, [B.key]: { 'd/1': 1 } }),
        run({ [A.key]: { 'd/2': 0, 'd/1': 0 }, [B.key]: { 'd/1': 0 } }),
        run({ [A.key]: { 'd/2': 0, 'd/1': 0 }, [B.key]: { 'd/1': 1 } }),
      ],
      [
        { contender: B.key, dataset: 'd', caseKey: 'd/1', flips: 2, runs: 3, right: true },
        { contender: A.key, dataset: 'd', caseKey: 'd/1', flips: 1, runs: 3, right: false },
        { contender: A.key, dataset: 'd', caseKey: 'd/2', flips: 1, runs: 3, right: false },
      ],
    ],
    [
      'a run without a value (null, or not run) is skipped: 1 · null · 0 is one flip over two runs',
      [
        run({ [A.key]: { 'd/1': 1 } }),
        run({ [A.key]: { 'd/1': null } }),
        run({}),
        run({ [A.key]: { 'd/1': 0 } }),
      ],
      [{ contender: A.key, dataset: 'd', caseKey: 'd/1', flips: 1, runs: 2, right: false }],
    ],
    [
      'graded: right is full marks, so 0.9 → 1 flips and 0.5 → 0.9 does not',
      [run({ [A.key]: { 'd/1': 0.9, 'd/2': 0.5 } }), run({ [A.key]: { 'd/1': 1, 'd/2': 0.9 } })],
      [{ contender: A.key, dataset: 'd', caseKey: 'd/1', flips: 1, runs: 2, right: true }],
    ],
    [
      'an edited case (its hash changed) is no flip; an unknown hash compares',
      [
        run({ [A.key]: { 'd/1': 1, 'd/2': 1 } }),
        run({ [A.key]: { 'd/1': 0, 'd/2': 0 } }, { d: { 'd/1': 'edited', 'd/2': '' } }),
        run({ [A.key]: { 'd/1': 1, 'd/2': 0 } }, { d: { 'd/1': 'edited', 'd/2': 'h2' } }),
      ],
      [
        { contender: A.key, dataset: 'd', caseKey: 'd/1', flips: 1, runs: 3, right: true },
        { contender: A.key, dataset: 'd', caseKey: 'd/2', flips: 1, runs: 3, right: false },
      ],
    ],
    [
      'repeats merge: right only when every repeat got it right',
      (() => {
        const [a1, a2] = repeatContenders([A], 2) as [typeof A, typeof A];
        return [
          run({ [a1.key]: { 'd/1': 1, 'd/2': 1 }, [a2.key]: { 'd/1': 1, 'd/2': 1 } }, HASHES, [a1, a2]),
          run({ [a1.key]: { 'd/1': 1, 'd/2': 0 }, [a2.key]: { 'd/1': 0, 'd/2': 1 } }, HASHES, [a1, a2]),
        ];
      })(),
      [
        { contender: A.key, dataset: 'd', caseKey: 'd/1', flips: 1, runs: 2, right: false },
        { contender: A.key, dataset: 'd', caseKey: 'd/2', flips: 1, runs: 2, right: false },
      ],
    ],
  ])('%s', (_, runs, expected) => {
    expect(flipsAcrossRuns(runs)).toEqual(expected);
  });
});
