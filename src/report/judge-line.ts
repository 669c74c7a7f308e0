import type { Snapshot } from '../core/snapshot.ts';
import { formatCost, formatCount } from './format.ts';

/** The judge's figures of a run, summed from its results (the case runner records them apart from the contender's). */
export interface JudgeTotals {
  /** Replies a judge graded (or tried to). */
  replies: number;
  /** Judge calls made (paid) and verdicts the reply cache gave. */
  calls: number;
  cached: number;
  inputTokens: number | null;
  outputTokens: number | null;
  /** Dollars the judge's calls cost this run; `null` when no provider said. */
  costUsd: number | null;
  /** Replies no judge gave a readable verdict on. */
  failures: number;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The judge's totals of a run, or `undefined` when nothing was judged. */
export function judgeTotals(snapshot: Snapshot): JudgeTotals | undefined {
  const t: JudgeTotals = {
    replies: 0,
    calls: 0,
    cached: 0,
    inputTokens: null,
    outputTokens: null,
    costUsd: null,
    failures: 0,
  };
  const add = (a: number | null, b: number | undefined) => (b === undefined ? a : (a ?? 0) + b);
  for (const r of snapshot.results) {
    if (r.status === 'error' && r.error?.includes('judge failure: ')) t.failures++;
    const d = r.diagnostics;
    const calls = num(d.judge_calls);
    const cached = num(d.judge_cached);
    if (calls === undefined && cached === undefined) continue;
    t.replies++;
    t.calls += calls ?? 0;
    t.cached += cached ?? 0;
    t.inputTokens = add(t.inputTokens, num(d.judge_tokens_in));
    t.outputTokens = add(t.outputTokens, num(d.judge_tokens_out));
    t.costUsd = add(t.costUsd, num(d.judge_usd));
  }
  return t.replies === 0 ? undefined : t;
}

/**
 * The judge's closing line, apart from the contenders' cost: `judge: 4 calls (2 from the cache), 1,234 tokens in, 56
 * out, $0.0012 apart from the contenders'; 1 judge failure`; `''` when nothing was judged.
 */
export function renderJudgeLine(snapshot: Snapshot): string {
  const t = judgeTotals(snapshot);
  if (!t) return '';
  const parts = [
    `${formatCount(t.calls)} call${t.calls === 1 ? '' : 's'}${t.cached ? ` (${formatCount(t.cached)} from the cache)` : ''}`,
    ...(t.inputTokens !== null ? [`${formatCount(t.inputTokens)} tokens in`] : []),
    ...(t.outputTokens !== null ? [`${formatCount(t.outputTokens)} out`] : []),
    `${formatCost(t.costUsd)} apart from the contenders'`,
  ];
  const failures = t.failures ? `; ${t.failures} judge failure${t.failures === 1 ? '' : 's'}` : '';
  return `judge: ${parts.join(', ')}${failures}`;
}
