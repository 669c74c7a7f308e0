import { z } from 'zod';

/** One tool call as `expected.json` spells it and as a trajectory records it: a tool's name and its arguments. */
export const ToolCallSchema = z.strictObject({
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
});
/** A tool call: name and arguments (the model's call id, when there is one, plays no part in matching). */
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** `expected.tool_calls`: the calls a case wants, in the order it wants them. */
export const ExpectedToolCallsSchema = z.array(ToolCallSchema);

/**
 * How the calls made must relate to the expected calls for the case to pass: `strict` the same calls in the same
 * order, `unordered` the same calls in any order, `subset` no call beyond the expected ones, `superset` every expected
 * call (more are allowed).
 */
export type MatchMode = 'strict' | 'unordered' | 'subset' | 'superset';
/** The match modes, for checking what a user wrote. */
export const MATCH_MODES: readonly MatchMode[] = ['strict', 'unordered', 'subset', 'superset'];

/**
 * The lineup's `trajectory:` section, for a suite that scores its agents without code: the match mode (strict unless
 * set) and the argument mode (exact unless set); the final answer goes to the lineup's scorer or its judge.
 */
export const TrajectoryConfigSchema = z.strictObject({
  mode: z.enum(['strict', 'unordered', 'subset', 'superset']).optional(),
  args: z.enum(['exact', 'subset']).optional(),
});
/** The lineup's `trajectory:` section as parsed. */
export type TrajectoryConfig = z.infer<typeof TrajectoryConfigSchema>;

/** When a call's arguments match the expected ones: `exact` equal, `subset` equal on the expected keys only. */
export type ArgumentMode =
  | 'exact'
  | 'subset'
  | ((expected: Record<string, unknown>, actual: Record<string, unknown>, tool: string) => boolean);

/** What became of one call: made and expected, made with other arguments, made and not expected, expected and not made. */
export type CallStatus = 'matched' | 'wrong_arguments' | 'invented' | 'missing';

/** One line of the per-step status: the call made (its index among the calls) and the expected one it answers. */
export interface CallVerdict {
  status: CallStatus;
  name: string;
  /** Index of the call made, or null when the expected call was never made. */
  actual: number | null;
  /** Index of the expected call, or null for an invented call. */
  expected: number | null;
}

/** A trajectory's verdict: the pass/fail score of the match mode, the metrics and each call's status. */
export interface TrajectoryVerdict {
  score: 0 | 1;
  metrics: {
    tool_precision: number;
    tool_recall: number;
    tool_f1: number;
    order_ok: 0 | 1;
    steps: number;
  };
  calls: CallVerdict[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Deep equality of JSON values; object key order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => jsonEqual(item, b[i]))
    );
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]))
  );
}

/** Whether a call made answers an expected call: same tool, arguments matching by the argument mode. */
export function callMatches(expected: ToolCall, actual: ToolCall, mode: ArgumentMode = 'exact'): boolean {
  if (expected.name !== actual.name) return false;
  if (typeof mode === 'function') return mode(expected.arguments, actual.arguments, expected.name);
  if (mode === 'exact') return jsonEqual(expected.arguments, actual.arguments);
  return Object.entries(expected.arguments).every(
    ([key, value]) => Object.hasOwn(actual.arguments, key) && jsonEqual(value, actual.arguments[key]),
  );
}

/**
 * The largest pairing of calls made with expected calls whatever their order (augmenting paths: a greedy pairing
 * can lose a pair when `subset` arguments let one call answer two expected ones). Returns, per expected call, the
 * index of the call made that answers it, or -1.
 */
function largestPairing(fits: boolean[][], made: number): number[] {
  const ownerOf = new Array<number>(made).fill(-1);
  const tryPair = (e: number, seen: boolean[]): boolean => {
    for (let a = 0; a < made; a++) {
      if (!fits[e]![a] || seen[a]) continue;
      seen[a] = true;
      if (ownerOf[a] === -1 || tryPair(ownerOf[a]!, seen)) {
        ownerOf[a] = e;
        return true;
      }
    }
    return false;
  };
  fits.forEach((_, e) => tryPair(e, new Array<boolean>(made).fill(false)));
  const pairOf = new Array<number>(fits.length).fill(-1);
  ownerOf.forEach((e, a) => {
    if (e !== -1) pairOf[e] = a;
  });
  return pairOf;
}

/** The most pairs that keep the expected order (a longest common subsequence under the fit relation). */
function orderedPairs(fits: boolean[][], made: number): number {
  let row = new Array<number>(made + 1).fill(0);
  for (const fitRow of fits) {
    const next = new Array<number>(made + 1).fill(0);
    for (let a = 1; a <= made; a++)
      next[a] = fitRow[a - 1] ? row[a - 1]! + 1 : Math.max(row[a]!, next[a - 1]!);
    row = next;
  }
  return row[made]!;
}

const ratio = (part: number, whole: number, empty: number) => (whole === 0 ? empty : part / whole);

/**
 * Scores the calls a model made against the expected calls. Precision, recall and F1 count calls matched by name
 * and arguments whatever their order; `order_ok` says the matched calls can be read in the expected order; the match
 * mode alone decides `score`. `steps` is the number of model steps when the caller knows it, else the calls made.
 * With nothing expected and nothing called every metric is 1; a call made when none is expected has precision 0.
 */
export function matchTrajectory(
  made: readonly ToolCall[],
  expected: readonly ToolCall[],
  options: { mode?: MatchMode; args?: ArgumentMode; steps?: number } = {},
): TrajectoryVerdict {
  const mode = options.mode ?? 'strict';
  const args = options.args ?? 'exact';
  const fits = expected.map((want) => made.map((call) => callMatches(want, call, args)));
  const pairOf = largestPairing(fits, made.length);
  const matched = pairOf.filter((a) => a !== -1).length;
  const precision = ratio(matched, made.length, expected.length === 0 ? 1 : 0);
  const recall = ratio(matched, expected.length, 1);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const orderOk = orderedPairs(fits, made.length) === matched;
  const everyMade = matched === made.length;
  const everyExpected = matched === expected.length;
  const pass =
    mode === 'strict'
      ? made.length === expected.length && expected.every((_, i) => fits[i]![i])
      : mode === 'unordered'
        ? everyMade && everyExpected
        : mode === 'subset'
          ? everyMade
          : everyExpected;
  return {
    score: pass ? 1 : 0,
    metrics: {
      tool_precision: precision,
      tool_recall: recall,
      tool_f1: f1,
      order_ok: orderOk ? 1 : 0,
      steps: options.steps ?? made.length,
    },
    calls: callVerdicts(made, expected, pairOf),
  };
}

/**
 * Each call's status, in the order the calls were made, then the missing ones in expected order: an unmatched call
 * to a tool that an unmatched expected call names is that call with wrong arguments; any other is invented.
 */
function callVerdicts(
  made: readonly ToolCall[],
  expected: readonly ToolCall[],
  pairOf: number[],
): CallVerdict[] {
  const answered = new Map<number, number>();
  pairOf.forEach((a, e) => {
    if (a !== -1) answered.set(a, e);
  });
  const open = new Set([...expected.keys()].filter((e) => pairOf[e] === -1));
  const verdicts: CallVerdict[] = made.map((call, a) => {
    const e = answered.get(a);
    if (e !== undefined) return { status: 'matched', name: call.name, actual: a, expected: e };
    const same = [...open].find((i) => expected[i]!.name === call.name);
    if (same === undefined) return { status: 'invented', name: call.name, actual: a, expected: null };
    open.delete(same);
    return { status: 'wrong_arguments', name: call.name, actual: a, expected: same };
  });
  for (const e of open)
    verdicts.push({ status: 'missing', name: expected[e]!.name, actual: null, expected: e });
  return verdicts;
}
