import { describe, expect, it } from 'vitest';
import { contenderKey } from '../../src/core/matrix.ts';
import { mcnemarExact } from '../../src/core/paired.ts';
import { diffRuns, type RunDigest } from '../../src/core/run-change.ts';
import { renderChange } from '../../src/report/change.ts';
import { stripAnsi } from '../helpers/cli.ts';

const base = { provider: 'fake', id: 'fake/alpha', effort: 'default', temperature: null, maxTokens: null };
const A = { ...base, key: contenderKey(base), model: 'alpha', limits: [] };

const keys = (n: number) => Array.from({ length: n }, (_, i) => `d/${String(i + 1).padStart(3, '0')}`);

/** A run of one contender on one dataset: its per-case primary metric (null: no value) and a reply naming it. */
function run(runId: string, values: (number | null)[], hashes: Record<string, string> = {}): RunDigest {
  const caseKeys = keys(values.length);
  const known = values.filter((v): v is number => v !== null);
  return {
    runId,
    createdAt: `${runId}-at`,
    primary: 'exact',
    contenders: [A],
    rows: [
      {
        contender: A.key,
        dataset: 'd',
        score: known.reduce((a, b) => a + b, 0) / known.length,
        wscore: null,
        cost: 0.01,
        latency: 1,
        errors: 0,
        cases: values.length,
      },
    ],
    cases: { d: Object.fromEntries(caseKeys.map((k) => [k, hashes[k] ?? 'h'])) },
    perCase: [
      {
        contender: A.key,
        dataset: 'd',
        values: Object.fromEntries(caseKeys.map((k, i) => [k, values[i]!])),
        replies: Object.fromEntries(caseKeys.map((k, i) => [k, `${runId} says ${values[i]}`])),
      },
    ],
  };
}

const all = (n: number, v: number) => Array.from({ length: n }, () => v);

describe('diff: the paired test of each row and the cases that flipped', () => {
  it('a real drop (10 of 40 cases right → wrong) is significant, and lists those cases with both replies', () => {
    const after = all(40, 1).map((v, i) => (i % 4 === 0 ? 0 : v));
    const { rows } = diffRuns(run('r1', all(40, 1)), run('r2', after));
    const p = rows[0]!.paired!;
    expect(p).toMatchObject({ n: 40, meanDiff: -0.25, test: 'mcnemar-exact', significant: true });
    expect(p.pValue).toBeCloseTo(mcnemarExact(0, 10), 12);
    expect([p.flippedToWrong, p.flippedToRight]).toEqual([10, 0]);
    expect(p.toWrong[0]).toEqual({ caseKey: 'd/001', before: 'r1 says 1', after: 'r2 says 0' });
    const text = stripAnsi(renderChange(diffRuns(run('r1', all(40, 1)), run('r2', after)), { width: 200 }));
    expect(text).toMatch(/significant \(p = 0\.002\d*, 40 cases\)/);
    expect(text).toContain('fake/alpha on d: 10 right → wrong, 0 wrong → right');
    expect(text).toContain('right → wrong d/005: "r1 says 1" → "r2 says 0"');
  });

  it('lists the flipped cases in case-key order, whatever order the run recorded them in', () => {
    const after = run(
      'r2',
      all(40, 1).map((v, i) => (i % 4 === 0 ? 0 : v)),
    );
    const reversed = <T>(o: Record<string, T>) => Object.fromEntries(Object.entries(o).reverse());
    const own = after.perCase![0]!;
    after.perCase = [{ ...own, values: reversed(own.values), replies: reversed(own.replies) }];
    const p = diffRuns(run('r1', all(40, 1)), after).rows[0]!.paired!;
    expect(p.toWrong.map((f) => f.caseKey)).toEqual(keys(40).filter((_, i) => i % 4 === 0));
  });

  it('a one-case wobble is noise', () => {
    const after = all(40, 1).map((v, i) => (i === 7 ? 0 : v));
    const p = diffRuns(run('r1', all(40, 1)), run('r2', after)).rows[0]!.paired!;
    expect(p).toMatchObject({ n: 40, pValue: 1, significant: false, flippedToWrong: 1 });
    expect(
      stripAnsi(renderChange(diffRuns(run('r1', all(40, 1)), run('r2', after)), { width: 200 })),
    ).toContain('noise (p = 1.00, 40 cases)');
  });

  it.each([
    // Cases without a value on either side leave the pair.
    ['nulls', [1, null, 1, 0], [0, 1, null, 0], {}, 2],
    // An edited case is not the same case any more: it leaves the pair too.
    ['an edited case', [1, 1, 1, 0], [0, 1, 1, 0], { 'd/001': 'h2' }, 3],
    ['n = 1', [1], [0], {}, 1],
  ])('%s: n says how many pairs remained', (_, before, after, hashes, n) => {
    const p = diffRuns(run('r1', before), run('r2', after, hashes)).rows[0]!.paired!;
    expect(p.n).toBe(n);
    expect(p.significant).toBe(false);
  });

  it('a failed case counts as wrong: a run whose every call failed drops significantly', () => {
    // digestOf gives a failed case 0 (caseValue); here the digest says so directly.
    const p = diffRuns(run('r1', all(12, 1)), run('r2', all(12, 0))).rows[0]!.paired!;
    expect(p).toMatchObject({ n: 12, meanDiff: -1, significant: true });
    expect(p.toWrong).toHaveLength(12);
  });

  it('lists at most 20 flips each way, and counts them all', () => {
    const p = diffRuns(run('r1', all(50, 1)), run('r2', all(50, 0))).rows[0]!.paired!;
    expect(p.flippedToWrong).toBe(50);
    expect(p.toWrong).toHaveLength(20);
    expect(stripAnsi(renderChange(diffRuns(run('r1', all(50, 1)), run('r2', all(50, 0)))))).toContain(
      '… and 30 more',
    );
  });

  it('digests without per-case values (older callers) give no paired test', () => {
    const { perCase: _, ...old } = run('r1', all(4, 1));
    expect(diffRuns(old, run('r2', all(4, 0))).rows[0]!.paired).toBeUndefined();
  });
});
