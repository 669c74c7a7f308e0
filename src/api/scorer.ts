import type { Case, Json, Metric, Reply, Score } from './types.ts';

/** Grades a reply against a case, purely and deterministically; extend it with your metrics. */
export abstract class Scorer {
  abstract metrics(): Metric[];

  abstract call(kase: Case, reply: Reply, context: Json): Score;

  /** Offline problems with a case's expected answer, for `verify`. */
  verify(_kase: Case, _context: Json): string[] {
    return [];
  }

  /** A short description of the case for `cases`, such as `3/8 answered`. */
  summary(_kase: Case): string {
    return '';
  }
}
