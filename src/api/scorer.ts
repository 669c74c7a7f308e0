import type { Case, Json, Metric, Model, Reply, Score } from './types.ts';

/** What a run lends a scorer: a judge model's calls through the run's own machinery. */
export interface ScorerTools {
  /**
   * The judge model `id` (as the lineup's `judge:` names it), its calls through the same gate (rate limits,
   * max_concurrency, back-off, pause), reply cache and retries as the contenders'; `sample` (1..k) keeps a reply's k
   * verdicts apart in the cache.
   */
  judge(id: string, sample: number): Model;
}

/**
 * Grades a reply against a case; extend it with your metrics. `call` may return its score or a promise of it (a judge
 * model's verdict, say); a synchronous scorer keeps working unchanged.
 */
export abstract class Scorer {
  abstract metrics(): Metric[];

  abstract call(kase: Case, reply: Reply, context: Json, tools?: ScorerTools): Score | Promise<Score>;

  /** Offline problems with a case's expected answer, for `verify`. */
  verify(_kase: Case, _context: Json): string[] {
    return [];
  }

  /**
   * The score of a reply the adapter marked failed (`Reply.error`): 0, and by default the primary metric 0 and
   * the others left out of the means (`null`) — a failed reply must not look good on a lower-is-better rate.
   * Override it when your metrics have an honest value for a failed reply.
   */
  failed(_kase: Case, _reply: Reply, _context: Json): Score {
    return failedScore(this.metrics());
  }

  /** A short description of the case for `cases`, such as `3/8 answered`. */
  summary(_kase: Case): string {
    return '';
  }
}

/** The default score of a failed reply: 0, the primary metric (or the first) 0, every other metric `null`. */
export function failedScore(metrics: readonly Metric[]): Score {
  const primary = metrics.find((m) => m.primary) ?? metrics[0];
  return { value: 0, metrics: Object.fromEntries(metrics.map((m) => [m.name, m === primary ? 0 : null])) };
}
