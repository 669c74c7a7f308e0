import { describeRunClustering, type DatasetClustering } from '../core/cluster-se.ts';
import type { Estimate, JudgeLoad } from '../core/estimate.ts';
import { minimumDetectableDifference } from '../core/paired.ts';
import { addKnown } from '../core/results.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { formatCost, formatCount } from './format.ts';
import { wrapProse } from './text-width.ts';

/**
 * Sums a usage field over the results whose provider said it; `null` when none did. In one pass: two arrays of every
 * result's figure per field were the last thing `report` of 200,000 results grew by.
 */
function total(snapshot: Snapshot, field: 'inputTokens' | 'outputTokens' | 'costUsd'): number | null {
  let sum: number | null = null;
  for (const r of snapshot.results) sum = addKnown(sum, r.usage[field]);
  return sum;
}

/**
 * What the run paid: a reply from the reply cache costs what this run paid for it ($0 when no call was made), not
 * what its call cost when first paid for; `null` when no result has a price.
 */
function paid(snapshot: Snapshot): number | null {
  let sum: number | null = null;
  for (const r of snapshot.results) {
    const cost = r.usage.costUsd;
    sum = addKnown(sum, cost === null || !r.cached ? cost : r.cached.paidUsd);
  }
  return sum;
}

/** `3,365 vs 1,238 (+172%)`: the actual figure, the estimate, and how far off it was when both are known. */
function versus(
  actual: number | null,
  estimate: number | null,
  format: (n: number | null) => string,
): string {
  const both = `${format(actual)} vs ${format(estimate)}`;
  if (actual === null || estimate === null || estimate === 0) return both;
  const off = Math.round(((actual - estimate) / estimate) * 100);
  return `${both} (${off >= 0 ? '+' : '−'}${Math.abs(off)}%)`;
}

/**
 * The run's closing line: what it used against the estimate made before it started (`-n`'s) —
 * `used vs estimated: 3,365 vs 1,238 (+172%) tokens in, 290 vs 310 (−6%) out, $0.0031 vs $0.0029 (+7%)`, the dollars
 * what this run paid (a reply from the cache costs it nothing); `''` for a snapshot saved without an estimate, or
 * whose providers reported no usage.
 */
export function renderEstimateLine(snapshot: Snapshot): string {
  const e = snapshot.estimate;
  if (!e || snapshot.results.length === 0) return '';
  const parts = [
    [versus(total(snapshot, 'inputTokens'), e.inputTokens, formatCount), ' tokens in'],
    [versus(total(snapshot, 'outputTokens'), e.outputTokens, formatCount), ' tokens out'],
    [versus(paid(snapshot), e.costUsd, formatCost), ''],
  ].filter(([figure]) => figure);
  if (parts.length === 0) return '';
  return `used vs estimated: ${parts.map(([figure, unit]) => figure! + unit!).join(', ')}`;
}

/**
 * `compare -n`'s line on the judge, apart from the contenders' estimate: `judge: 8 calls (2 replies × 2 samples × 2
 * judges), estimated 1,234 tokens in, 480 tokens out, $0.0012…`; with `--pairwise`, `…, 2 pairs × 2 orders × 2
 * judges)`. An upper bound: replies alike share one verdict through the reply cache, which the estimate cannot foresee.
 */
export function renderJudgeEstimate(load: JudgeLoad, e: Estimate): string {
  const plural = (n: number, word: string) => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
  const pairs = load.pairs
    ? `, ${plural(load.pairs, 'pair')} × 2 orders × ${plural(load.members, 'judge')}`
    : '';
  return (
    `judge: ${plural(e.calls, 'call')} (${plural(load.replies, 'reply').replace(/ys$/, 'ies')} × ` +
    `${plural(load.samples, 'sample')} × ${plural(load.members, 'judge')}${pairs}), estimated ` +
    `${formatCount(e.inputTokens)} tokens in, ${formatCount(e.outputTokens)} tokens out, ${formatCost(e.costUsd)}` +
    `${e.costUsd === null ? ' (some prices unknown)' : ''}, apart from the contenders'; at most: a verdict on ` +
    'a reply another contender gave word for word, or one already in the reply cache, is not paid again'
  );
}

/** The spread per case assumed without an earlier run: the largest standard deviation a 0–1 score can have. */
export const ASSUMED_SPREAD = 0.5;

/**
 * `compare -n`'s line on what the suite can tell apart: the smallest difference in points a paired test over `cases`
 * cases detects with 80 % power at α = 0.05, from an earlier run's spread of per-case differences when there is one.
 * Cases in clusters (`clustering`) tell apart what n / deff independent ones would: the design effect the earlier
 * run measured, else the most it can be (n / clusters: each cluster as one case).
 */
export function renderDetectableLine(
  cases: number,
  previous?: { runId: string; spread: number; designEffect?: number },
  width?: number,
  clustering: readonly DatasetClustering[] = [],
): string {
  const sd = previous?.spread ?? ASSUMED_SPREAD;
  const clusters = clustering.reduce((s, c) => s + c.clusters, 0);
  const clustered = clustering.some((c) => c.by !== 'none') && clusters > 0;
  const measured = clustered ? previous?.designEffect : undefined;
  const effect = !clustered ? 1 : (measured ?? Math.max(1, cases / clusters));
  const points = Math.round(minimumDetectableDifference(cases / effect, sd) * 100);
  const source = previous
    ? `the spread of run ${previous.runId}'s per-case differences, ${sd.toFixed(2)}`
    : `an assumed spread of ${ASSUMED_SPREAD} per case, the most a 0–1 score has; a saved run gives a closer figure`;
  const design = !clustered
    ? ''
    : `; ${describeRunClustering(clustering)}, design effect ${effect.toFixed(2)}` +
      (measured !== undefined
        ? ` as run ${previous!.runId} measured it`
        : ', the most it can be (each cluster counted as one case)');
  return wrapProse(
    `with ${cases} ${cases === 1 ? 'case' : 'cases'} a difference under ~${points} points cannot be told from noise ` +
      `(80 % power at α = 0.05, paired; ${source}${design})`,
    width,
  );
}
