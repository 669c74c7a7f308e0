import type { JudgeAgreement } from '../core/judge-agreement.ts';

export type { JudgeAgreement };

/** Below this κ a judge is not to be trusted alone (Landis & Koch's "substantial" begins at 0.6). */
export const KAPPA_WARN = 0.6;

/** Pairs of (person's label, judge's score) on the same categories, ordered (`pass_fail`: fail, pass; a scale: min…max). */
export interface AgreementInput {
  /** Who judged: a model, or `panel`. */
  judge: string;
  /** The categories in order: `['fail', 'pass']` or `['1', '2', …]`. */
  categories: string[];
  /** Weighted κ (linear weights) for an ordered scale; Cohen's plain κ for pass/fail. */
  weighted: boolean;
  /** Each labelled reply: its category index by the person and by the judge. */
  pairs: [human: number, judge: number][];
}

/** Agreement weights: 1 on the diagonal; linear `1 − |i−j|/(k−1)` when weighted, else 0 off it. */
function weights(k: number, weighted: boolean): number[][] {
  return Array.from({ length: k }, (_, i) =>
    Array.from({ length: k }, (_, j) =>
      i === j ? 1 : weighted && k > 1 ? 1 - Math.abs(i - j) / (k - 1) : 0,
    ),
  );
}

/**
 * Cohen's κ, weighted or not, from a confusion matrix, with the large-sample standard error of Fleiss, Cohen &
 * Everitt (1969) (the one the plain κ's SE is a special case of); κ `null` when chance agreement is total.
 */
export function kappa(
  confusion: readonly (readonly number[])[],
  weighted: boolean,
): { kappa: number | null; se: number | null } {
  const k = confusion.length;
  const n = confusion.flat().reduce((a, b) => a + b, 0);
  if (n === 0) return { kappa: null, se: null };
  const w = weights(k, weighted);
  const p = confusion.map((row) => row.map((c) => c / n));
  const rows = p.map((row) => row.reduce((a, b) => a + b, 0));
  const cols = Array.from({ length: k }, (_, j) => p.reduce((a, row) => a + row[j]!, 0));
  let po = 0;
  let pe = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      po += w[i]![j]! * p[i]![j]!;
      pe += w[i]![j]! * rows[i]! * cols[j]!;
    }
  if (pe >= 1) return { kappa: null, se: null };
  const kap = (po - pe) / (1 - pe);
  // The weighted row and column means of the weights, as the SE's formula wants them.
  const wRow = Array.from({ length: k }, (_, i) => w[i]!.reduce((a, wij, j) => a + wij * cols[j]!, 0));
  const wCol = Array.from({ length: k }, (_, j) => w.reduce((a, row, i) => a + row[j]! * rows[i]!, 0));
  let sum = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const d = w[i]![j]! * (1 - pe) - (wRow[i]! + wCol[j]!) * (1 - po);
      sum += p[i]![j]! * d * d;
    }
  const variance = (sum - (po * pe - 2 * pe + po) ** 2) / (n * (1 - pe) ** 4);
  return { kappa: kap, se: Math.sqrt(Math.max(0, variance)) };
}

/** One judge's agreement with the people's labels. */
export function agreementOf(input: AgreementInput): JudgeAgreement {
  const k = input.categories.length;
  const confusion = Array.from({ length: k }, () => Array.from({ length: k }, () => 0));
  for (const [h, j] of input.pairs) confusion[h]![j]!++;
  const n = input.pairs.length;
  const same = input.pairs.filter(([h, j]) => h === j).length;
  const { kappa: kap, se } = kappa(confusion, input.weighted);
  const clip = (x: number) => Math.max(-1, Math.min(1, x));
  return {
    judge: input.judge,
    n,
    agreement: n ? same / n : null,
    kappa: kap,
    weighted: input.weighted,
    ci: kap !== null && se !== null ? [clip(kap - 1.96 * se), clip(kap + 1.96 * se)] : null,
    ciMethod: 'asymptotic',
    categories: input.categories,
    confusion,
    warn: kap === null || kap < KAPPA_WARN,
  };
}
