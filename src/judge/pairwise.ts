import { mcnemarExact } from '../core/paired.ts';
import { firstJsonObject } from './verdict.ts';

/** Which of the two replies shown a judge preferred, by position, or a judge failure (`null`). */
export type Position = 'first' | 'second' | 'tie';

/** One judge's two readings of one case: A shown first, then B shown first. */
export interface PairReading {
  caseKey: string;
  judge: string;
  /** A shown first. */
  aFirst: Position | null;
  /** B shown first. */
  bFirst: Position | null;
}

/** What a pair of readings says: A or B better, a tie, position-inconsistent, or a judge failure. */
export type PairOutcome = 'a' | 'b' | 'tie' | 'inconsistent' | 'failed';

/** The system message of a pairwise judge call: the role and the verdict's exact form. */
export const PAIRWISE_SYSTEM =
  'You are a strict, impartial grader comparing two replies to the same input. Judge by the rubric only, never by ' +
  'the order the replies are shown in or their length. Answer with one JSON object and nothing else: ' +
  '{"reasoning": "<a short explanation>", "winner": "first" | "second" | "tie"}.';

const fence = (tag: string, body: string) => `<${tag}>\n${body}\n</${tag}>`;

/** The user message of a pairwise judge call: the input, the two replies in the order given, the rubric. */
export function pairwisePrompt(p: { input: string; first: string; second: string; rubric: string }): string {
  return [
    fence('input', p.input),
    fence('first', p.first),
    fence('second', p.second),
    fence('rubric', p.rubric.trim()),
    'Which reply is better by the rubric? Reply with {"reasoning": string, "winner": "first" | "second" | "tie"} only.',
  ].join('\n\n');
}

/** Reads a pairwise verdict strictly (the whole text, else its first JSON object): the pick, or `null` if none. */
export function parsePick(raw: string): Position | null {
  const read = (text: string | undefined): unknown => {
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const parsed = read(raw.trim()) ?? read(firstJsonObject(raw));
  const winner = (parsed as { winner?: unknown } | undefined)?.winner;
  return winner === 'first' || winner === 'second' || winner === 'tie' ? winner : null;
}

/** What one case's two readings say: a verdict only when both orders agree on the reply (not the position). */
export function pairOutcome(r: Pick<PairReading, 'aFirst' | 'bFirst'>): PairOutcome {
  if (r.aFirst === null || r.bFirst === null) return 'failed';
  const aSays = r.aFirst === 'first' ? 'a' : r.aFirst === 'second' ? 'b' : 'tie';
  const bSays = r.bFirst === 'first' ? 'b' : r.bFirst === 'second' ? 'a' : 'tie';
  return aSays === bSays ? aSays : 'inconsistent';
}

/** Win/tie/loss of A against B, the sign test on wins vs losses (ties dropped), and what did not count. */
export interface PairTally {
  wins: number;
  ties: number;
  losses: number;
  inconsistent: number;
  failed: number;
  /** The exact two-sided sign test (binomial, p = ½) on wins vs losses; 1 with none. */
  p: number;
}

/** One judge's pairwise figures, with its position-bias rate. */
export interface JudgePairwise extends PairTally {
  judge: string;
  /**
   * Of its position-inconsistent pairs, the share where it picked the same position both times (first twice or second
   * twice); `null` with no inconsistent pair.
   */
  positionBias: number | null;
}

/** The pairwise report: A and B as the lineup names them, per judge, and overall (the judges' majority per case). */
export interface PairwiseReport {
  a: string;
  b: string;
  judges: JudgePairwise[];
  overall: PairTally & { cases: number };
}

function tally(outcomes: readonly PairOutcome[]): PairTally {
  const count = (o: PairOutcome) => outcomes.filter((x) => x === o).length;
  const wins = count('a');
  const losses = count('b');
  return {
    wins,
    ties: count('tie'),
    losses,
    inconsistent: count('inconsistent'),
    failed: count('failed'),
    p: mcnemarExact(wins, losses),
  };
}

/** A case's outcome over its judges: the majority of the consistent verdicts; a tie when they split evenly. */
function caseOutcome(outcomes: readonly PairOutcome[]): PairOutcome {
  const counted = outcomes.filter((o) => o === 'a' || o === 'b' || o === 'tie');
  if (counted.length === 0) return outcomes.includes('inconsistent') ? 'inconsistent' : 'failed';
  const a = counted.filter((o) => o === 'a').length;
  const b = counted.filter((o) => o === 'b').length;
  return a > b && a * 2 > counted.length ? 'a' : b > a && b * 2 > counted.length ? 'b' : 'tie';
}

/** The pairwise report of A against B from every judge's readings (a judge's readings in its given order). */
export function pairwiseReport(a: string, b: string, readings: readonly PairReading[]): PairwiseReport {
  const judges = [...new Set(readings.map((r) => r.judge))];
  const perJudge = judges.map((judge): JudgePairwise => {
    const mine = readings.filter((r) => r.judge === judge);
    const outcomes = mine.map(pairOutcome);
    const inconsistent = mine.filter((_, i) => outcomes[i] === 'inconsistent');
    const samePosition = inconsistent.filter((r) => r.aFirst === r.bFirst).length;
    return {
      judge,
      ...tally(outcomes),
      positionBias: inconsistent.length ? samePosition / inconsistent.length : null,
    };
  });
  const cases = [...new Set(readings.map((r) => r.caseKey))];
  const overall = tally(
    cases.map((k) => caseOutcome(readings.filter((r) => r.caseKey === k).map(pairOutcome))),
  );
  return { a, b, judges: perJudge, overall: { ...overall, cases: cases.length } };
}
