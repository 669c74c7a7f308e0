import type { ScorerTools } from '../src/api/scorer.ts';
import type { Case, Json } from '../src/api/types.ts';
import type { Contender } from '../src/core/matrix.ts';
import { UNKNOWN_USAGE } from '../src/core/results.ts';
import type { JudgeScorer } from '../src/scorers/judge.ts';
import { judgePair } from '../src/scorers/pairwise-judge.ts';
import { cachedModel, type CacheLog } from './cached-model.ts';
import type { CaseDeps } from './case-runner.ts';
import { gatedModel, type CallLog } from './gated-model.ts';

/** Where the pairwise round runs: the case's run, its try, and the log whose `control` the case runner heeds. */
export interface PairTask {
  runId: string;
  attempts: number;
  /** The judge's log: a pause or stop met while fetching A's reply is told there, as a judge call's would be. */
  judgeLog: CallLog;
}

/**
 * `--pairwise A B`, in B's case: A's reply to the same case, through A's own gate and reply cache (so it is A's
 * experiment's answer, found in the cache when A answered first), then each judge's readings of the pair in both
 * orders. What it records goes in B's result: A's key and the readings, or why there are none.
 */
export async function pairwiseRound(
  deps: Pick<CaseDeps, 'adapter' | 'registry' | 'gate' | 'replies' | 'env'>,
  t: PairTask,
  against: Contender,
  scorer: JudgeScorer,
  kase: Case,
  reply: string,
  tools: ScorerTools,
): Promise<Json> {
  const provider = deps.registry.get(against.provider);
  if (!provider) return { against: against.key, error: `this worker knows no provider ${against.provider}` };
  const log: CallLog = { usage: UNKNOWN_USAGE, latency: null, waited: 0 };
  const cache: CacheLog = { replies: 0, calls: 0, paidUsd: 0 };
  const gated = gatedModel(against, provider, deps.gate, t.runId, log, t.attempts, deps.env);
  const model = cachedModel(gated, against, provider, t.runId, deps.replies, log, cache);
  let other;
  try {
    other = await deps.adapter.call(kase, model);
  } finally {
    if (log.control) t.judgeLog.control = log.control;
  }
  if (other.error !== undefined || other.raw === undefined)
    return { against: against.key, error: `${against.id} gave no reply: ${other.error ?? 'no text'}` };
  const readings = await judgePair(scorer, kase, other.raw, reply, tools);
  return { against: against.key, readings, answered: cache.calls };
}
