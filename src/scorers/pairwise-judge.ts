import type { ScorerTools } from '../api/scorer.ts';
import type { Case } from '../api/types.ts';
import { pairwisePrompt, parsePick, PAIRWISE_SYSTEM, type Position } from '../judge/pairwise.ts';
import { finalFailure, type JudgeScorer } from './judge.ts';

/** Each judge's two readings of a pair: A shown first, then B shown first (`null`: a judge failure). */
export type PairReadings = Record<string, [aFirst: Position | null, bFirst: Position | null]>;

/**
 * Asks each judge of `scorer` which of two replies to a case is better, once with A's shown first and once with B's,
 * through the run's judge calls (`tools.judge`: the contenders' gate, reply cache and retries). A judge whose call
 * fails for good, or whose verdict cannot be read, reads `null` for that order.
 */
export async function judgePair(
  scorer: JudgeScorer,
  kase: Case,
  a: string,
  b: string,
  tools: ScorerTools,
): Promise<PairReadings> {
  const rubric =
    typeof scorer.options.rubric === 'function' ? scorer.options.rubric(kase) : scorer.options.rubric;
  const ask = async (id: string, first: string, second: string): Promise<Position | null> => {
    try {
      const model = tools.judge(id, 1);
      const user = pairwisePrompt({ input: kase.input, first, second, rubric });
      return parsePick((await model.complete({ system: PAIRWISE_SYSTEM, user, json: true })).text);
    } catch (error) {
      // As a verdict's: a call that will not be tried again is this judge's failure; anything else goes up to the run.
      if (!finalFailure(error)) throw error;
      return null;
    }
  };
  const readings = await Promise.all(
    scorer.options.models.map(async (id) => [id, await Promise.all([ask(id, a, b), ask(id, b, a)])] as const),
  );
  return Object.fromEntries(readings);
}
