import { ALPHA } from '../core/comparisons.ts';
import { describeRunClustering } from '../core/cluster-se.ts';
import { holm, minimumDetectableDifference } from '../core/paired.ts';
import type { ChangeRow, RunChange, RunDigest } from '../core/run-change.ts';

/**
 * The gate on a pull request: a run against its baseline, each contender on each dataset both hold tested against
 * its baseline self with the paired test the change carries (exact McNemar for pass/fail, paired t otherwise), Holm
 * across every contender × dataset. A row regresses only when it is significantly worse and worse by at least
 * `minDrop` points; `maxDrop` keeps its schedule meaning (a drop of that many points fails, significant or not).
 */

/** What became of one contender on one dataset since the baseline. */
export type GateVerdict = 'regressed' | 'improved' | 'unchanged' | 'untested';

/** One contender on one dataset: baseline and now, the difference with its interval, the adjusted p, the verdict. */
export interface GateRow {
  contender: string;
  dataset: string;
  before: number | null;
  after: number | null;
  /** Now − baseline, in points, over the cases both runs share unedited; its 95 % interval. */
  diff: number | null;
  ci95: [number, number] | null;
  n: number;
  pAdjusted: number | null;
  verdict: GateVerdict;
  /** The cases that went from right to wrong (the first listed) and back. */
  flippedToWrong: number;
  flippedToRight: number;
  toWrong: string[];
  /** Why it fails the gate, when it does. */
  fails?: string;
}

/** The gate's options: its α, the smallest drop that counts as a regression, and the drop that fails regardless. */
export interface GateOptions {
  alpha?: number;
  minDrop?: number;
  maxDrop?: number;
  /** With `--sample`: the share of the suite run (`4 of 20 cases per dataset`), its smallest dataset, the seed. */
  sample?: { share: string; cases: number; seed: number };
}

/** A sampled gate's reach: the share run, and the smallest drop (points) it detects with 80 % power at its α. */
export interface GateSample {
  share: string;
  seed: number;
  detectable: number;
}

/** The gate's answer: its rows, whether it fails and why, and what the two runs do not share (never compared). */
export interface GateResult {
  baseline: string;
  run: string;
  primary: string;
  alpha: number;
  minDrop: number;
  maxDrop?: number;
  rows: GateRow[];
  failed: boolean;
  reasons: string[];
  cases: { added: string[]; gone: string[]; changed: string[] };
  contenders: { added: string[]; gone: string[] };
  /** The clustering the paired tests used: `clustered by variant (12 clusters)` or `cases independent`. */
  clustering: string;
  clustered: boolean;
  sample?: GateSample;
}

const pts = (v: number) => Math.round(v * 1000) / 10;

/** A p-value as the gate says it: two figures, or `< 0.0001` below that. */
export function formatP(p: number): string {
  return p < 0.0001 ? '< 0.0001' : `= ${p.toPrecision(2)}`;
}

/** Judges a run against its baseline (`change` is `diffRuns(baseline, run)`); `label` names a contender key. */
export function judgeAgainstBaseline(
  change: RunChange,
  options: GateOptions = {},
  label: (key: string) => string = (key) => key,
): GateResult {
  const alpha = options.alpha ?? ALPHA;
  const minDrop = options.minDrop ?? 0;
  const shared = change.rows.filter((r) => r.presence === 'both');
  const tested = shared.filter((r) => r.paired && r.paired.n > 0);
  const adjusted = new Map(holm(tested.map((r) => r.paired!.pValue)).map((p, i) => [tested[i]!, p]));
  const rows = shared.map((row): GateRow => gateRow(row, adjusted.get(row), { ...options, alpha, minDrop }));
  const reasons = rows.flatMap((r) => (r.fails ? [`${label(r.contender)} on ${r.dataset}: ${r.fails}`] : []));
  return {
    baseline: change.before.runId,
    run: change.after.runId,
    primary: change.primary,
    alpha,
    minDrop,
    ...(options.maxDrop !== undefined ? { maxDrop: options.maxDrop } : {}),
    rows,
    failed: reasons.length > 0,
    reasons,
    cases: change.cases,
    contenders: { added: change.addedContenders.map(label), gone: change.goneContenders.map(label) },
    clustering: describeRunClustering(change.clustering ?? []),
    clustered: (change.clustering ?? []).some((c) => c.by !== 'none'),
    ...(options.sample ? { sample: sampleReach(options.sample, alpha) } : {}),
  };
}

/**
 * What a sample can tell: the smallest drop a paired test over its smallest dataset detects with 80 % power, at the
 * largest spread a 0–1 score has per case (0.5), as `compare -n` says it without an earlier run.
 */
function sampleReach(sample: NonNullable<GateOptions['sample']>, alpha: number): GateSample {
  const detectable = Math.round(minimumDetectableDifference(sample.cases, 0.5, alpha) * 100);
  return { share: sample.share, seed: sample.seed, detectable };
}

function gateRow(
  row: ChangeRow,
  pAdjusted: number | undefined,
  options: Required<Pick<GateOptions, 'alpha' | 'minDrop'>> & GateOptions,
): GateRow {
  const paired = row.paired;
  const diff = paired && paired.n > 0 ? pts(paired.meanDiff) : null;
  const significant = pAdjusted !== undefined && pAdjusted < options.alpha;
  const verdict: GateVerdict =
    diff === null || pAdjusted === undefined
      ? 'untested'
      : significant && diff < 0 && -diff >= options.minDrop
        ? 'regressed'
        : significant && diff > 0
          ? 'improved'
          : 'unchanged';
  const { before, after } = row.score;
  const drop = before !== null && after !== null ? pts(before - after) : null;
  const fails =
    verdict === 'regressed'
      ? `worse by ${-diff!} points (p ${formatP(pAdjusted!)} after Holm)`
      : options.maxDrop !== undefined && drop !== null && drop >= options.maxDrop
        ? `down ${drop} points (max drop ${options.maxDrop})`
        : undefined;
  return {
    contender: row.contender,
    dataset: row.dataset,
    before,
    after,
    diff,
    ci95: paired && diff !== null ? [pts(paired.ci95[0]), pts(paired.ci95[1])] : null,
    n: paired?.n ?? 0,
    pAdjusted: pAdjusted ?? null,
    verdict,
    flippedToWrong: paired?.flippedToWrong ?? 0,
    flippedToRight: paired?.flippedToRight ?? 0,
    toWrong: paired?.toWrong.map((f) => f.caseKey) ?? [],
    ...(fails ? { fails } : {}),
  };
}

/**
 * Why a baseline cannot judge a run, before any call: it shares no case with the planned run, or no contender
 * (`contenders` without their repeats), so nothing would be compared; `undefined` when it shares both.
 */
export function baselineProblem(
  baseline: Pick<RunDigest, 'cases' | 'contenders'>,
  planned: { cases: readonly string[]; contenders: readonly string[] },
): string | undefined {
  const cases = new Set(Object.values(baseline.cases).flatMap((d) => Object.keys(d)));
  const contenders = new Set(baseline.contenders.map((c) => c.key));
  const sharedCases = planned.cases.filter((k) => cases.has(k)).length;
  const sharedContenders = planned.contenders.filter((k) => contenders.has(k)).length;
  if (sharedCases && sharedContenders) return undefined;
  return `shares no ${sharedCases ? 'contender' : sharedContenders ? 'case' : 'case and no contender'} with this run (nothing to compare)`;
}
