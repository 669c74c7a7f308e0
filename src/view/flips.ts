import type { RunDigest } from '../core/run-change.ts';

/** Full marks: what "right" means for a graded metric, as the diff's flips count it. */
const isRight = (v: number) => v >= 1 - 1e-9;

/** One case of one contender on one dataset over a schedule's runs: right, wrong or not run in each, and its flips. */
export interface CaseFlips {
  contender: string;
  dataset: string;
  caseKey: string;
  /** Per run, oldest first: right (`true`), wrong (`false`), or no value there (`null`). */
  marks: (boolean | null)[];
  /** How often it went from right to wrong or back, from one run with a value to the next with one. */
  flips: number;
}

/**
 * The cases that flip between right and wrong over a schedule's runs (digests oldest first), most flips first, then
 * by contender, dataset and case: the unsteady cases a trend line averages away. Cases that never flip are left out.
 */
export function caseFlips(digests: readonly RunDigest[]): CaseFlips[] {
  const found = new Map<string, CaseFlips>();
  digests.forEach((digest, run) => {
    for (const experiment of digest.perCase ?? []) {
      for (const [caseKey, value] of Object.entries(experiment.values)) {
        const id = JSON.stringify([experiment.contender, experiment.dataset, caseKey]);
        let entry = found.get(id);
        if (!entry) {
          const { contender, dataset } = experiment;
          entry = { contender, dataset, caseKey, marks: digests.map(() => null), flips: 0 };
          found.set(id, entry);
        }
        entry.marks[run] = value === null ? null : isRight(value);
      }
    }
  });
  const flipped: CaseFlips[] = [];
  for (const entry of found.values()) {
    const known = entry.marks.filter((m): m is boolean => m !== null);
    entry.flips = known.filter((m, i) => i > 0 && m !== known[i - 1]).length;
    if (entry.flips > 0) flipped.push(entry);
  }
  return flipped.sort(
    (a, b) =>
      b.flips - a.flips ||
      a.contender.localeCompare(b.contender) ||
      a.dataset.localeCompare(b.dataset) ||
      a.caseKey.localeCompare(b.caseKey),
  );
}
