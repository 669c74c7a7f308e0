import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agreementOf, kappa, KAPPA_WARN } from '../../src/judge/agreement.ts';

/*
 * The fixture's κ were computed independently, once, in a venv under /tmp:
 *   pip install scikit-learn statsmodels
 *   from sklearn.metrics import cohen_kappa_score, confusion_matrix
 *   from statsmodels.stats.inter_rater import cohens_kappa
 *   cohen_kappa_score(h, j); cohen_kappa_score(h, j, weights='linear')
 *   cohens_kappa(confusion_matrix(h, j, labels=[...]), wt='linear')['std_kappa']   # the asymptotic SE
 */
const fixture = JSON.parse(
  readFileSync(new URL('../fixtures/judge/kappa.json', import.meta.url), 'utf8'),
) as {
  passFail: { human: string[]; judge: string[]; kappa: number; se: number };
  scale: { human: number[]; judge: number[]; kappa: number; weightedKappa: number; weightedSe: number };
};

const PF = ['fail', 'pass'];
const pfPairs = fixture.passFail.human.map((h, i): [number, number] => [
  PF.indexOf(h),
  PF.indexOf(fixture.passFail.judge[i]!),
]);
const scalePairs = fixture.scale.human.map((h, i): [number, number] => [h - 1, fixture.scale.judge[i]! - 1]);
const SCALE = ['1', '2', '3', '4', '5'];

describe("Cohen's κ against scikit-learn", () => {
  it('pass/fail: κ and its SE', () => {
    const a = agreementOf({ judge: 'j', categories: PF, weighted: false, pairs: pfPairs });
    expect(a.kappa).toBeCloseTo(fixture.passFail.kappa, 12);
    expect(a.n).toBe(20);
    expect(a.agreement).toBeCloseTo(16 / 20, 12);
    const half = 1.96 * fixture.passFail.se;
    expect(a.ci![0]).toBeCloseTo(fixture.passFail.kappa - half, 10);
    expect(a.ci![1]).toBeCloseTo(fixture.passFail.kappa + half, 10);
    expect(a.warn).toBe(fixture.passFail.kappa < KAPPA_WARN);
  });

  it('a 1-5 scale: plain κ and linear-weighted κ with its SE', () => {
    const plain = agreementOf({ judge: 'j', categories: SCALE, weighted: false, pairs: scalePairs });
    expect(plain.kappa).toBeCloseTo(fixture.scale.kappa, 12);
    const w = agreementOf({ judge: 'j', categories: SCALE, weighted: true, pairs: scalePairs });
    expect(w.kappa).toBeCloseTo(fixture.scale.weightedKappa, 12);
    expect(w.ci![1] - w.ci![0]).toBeCloseTo(2 * 1.96 * fixture.scale.weightedSe, 10);
    expect(w.warn).toBe(false);
    expect(w.confusion.flat().reduce((a, b) => a + b, 0)).toBe(25);
  });
});

describe('kappa', () => {
  it.each<[string, number[][], boolean, number | null]>([
    [
      'perfect agreement',
      [
        [3, 0],
        [0, 5],
      ],
      false,
      1,
    ],
    [
      'no agreement beyond chance',
      [
        [2, 2],
        [2, 2],
      ],
      false,
      0,
    ],
    [
      'always disagree',
      [
        [0, 4],
        [4, 0],
      ],
      false,
      -1,
    ],
    [
      'one category only: chance is total, κ undefined',
      [
        [0, 0],
        [0, 6],
      ],
      false,
      null,
    ],
    [
      'nothing labelled',
      [
        [0, 0],
        [0, 0],
      ],
      false,
      null,
    ],
    [
      'weighted, perfect',
      [
        [2, 0, 0],
        [0, 2, 0],
        [0, 0, 2],
      ],
      true,
      1,
    ],
  ])('%s', (_, confusion, weighted, expected) => {
    const k = kappa(confusion, weighted).kappa;
    if (expected === null) expect(k).toBeNull();
    else expect(k).toBeCloseTo(expected, 12);
  });

  it('a near miss on a scale counts partly when weighted, not at all when plain', () => {
    const confusion = [
      [1, 2, 0],
      [0, 1, 2],
      [0, 0, 3],
    ];
    expect(kappa(confusion, true).kappa!).toBeGreaterThan(kappa(confusion, false).kappa!);
  });

  it('warns below 0.6 and when κ is undefined', () => {
    expect(agreementOf({ judge: 'j', categories: PF, weighted: false, pairs: [[1, 1]] }).warn).toBe(true);
    expect(agreementOf({ judge: 'j', categories: PF, weighted: false, pairs: [] }).agreement).toBeNull();
  });
});
