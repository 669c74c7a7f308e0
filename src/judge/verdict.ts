import type { Json } from '../api/types.ts';
import type { Scale } from './config.ts';

/**
 * The JSON schema of a verdict on `scale` (`{reasoning, score}`, nothing else), asked for as the response format
 * where the endpoint takes one, so that the judge's reply is a verdict by construction.
 */
export function verdictSchema(scale: Scale): { name: string; schema: { [key: string]: Json } } {
  const score: { [key: string]: Json } =
    scale.kind === 'pass_fail'
      ? { type: 'string', enum: ['pass', 'fail'] }
      : { type: 'integer', minimum: scale.min, maximum: scale.max };
  return {
    name: 'verdict',
    schema: {
      type: 'object',
      properties: { reasoning: { type: 'string' }, score },
      required: ['reasoning', 'score'],
      additionalProperties: false,
    },
  };
}

/** A verdict read from a judge's reply: its score on the declared scale and that score mapped onto 0–1. */
export interface Verdict {
  ok: true;
  /** The score as the scale spells it: `pass`/`fail`, or the integer. */
  score: 'pass' | 'fail' | number;
  /** The score on 0–1: pass 1, fail 0, a range mapped linearly. */
  value: number;
  reasoning: string;
  /** `true` when the reply was not JSON as a whole and its first JSON object was read instead. */
  repaired: boolean;
}

/** A judge failure: a reply that holds no verdict on the scale. Never a score of 0 or 1. */
export interface JudgeFailure {
  ok: false;
  /** Why, in a sentence. */
  reason: string;
  /** The judge's raw text. */
  raw: string;
}

export type VerdictResult = Verdict | JudgeFailure;

/** A score on the scale mapped onto 0–1. */
export function toUnit(scale: Scale, score: 'pass' | 'fail' | number): number {
  if (scale.kind === 'pass_fail') return score === 'pass' ? 1 : 0;
  return ((score as number) - scale.min) / (scale.max - scale.min);
}

/** The first balanced `{…}` of the text (braces inside JSON strings ignored), or `undefined`. */
export function firstJsonObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function onScale(scale: Scale, score: unknown): score is 'pass' | 'fail' | number {
  if (scale.kind === 'pass_fail') return score === 'pass' || score === 'fail';
  return typeof score === 'number' && Number.isInteger(score) && score >= scale.min && score <= scale.max;
}

/**
 * Reads a judge's reply strictly: the whole text as a JSON object `{reasoning, score}`, or else (the one repair) the
 * text's first JSON object; the score must lie on the declared scale. Anything else is a named judge failure that
 * keeps the raw text.
 */
export function parseVerdict(scale: Scale, raw: string): VerdictResult {
  const fail = (reason: string): JudgeFailure => ({ ok: false, reason, raw });
  let repaired = false;
  let parsed = parseJson(raw.trim());
  if (parsed === undefined) {
    const first = firstJsonObject(raw);
    parsed = first === undefined ? undefined : parseJson(first);
    if (parsed === undefined) return fail('the judge reply holds no JSON object');
    repaired = true;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return fail('the judge reply is JSON but not an object');
  const { score, reasoning } = parsed as Record<string, unknown>;
  if (score === undefined) return fail('the judge verdict has no score');
  if (!onScale(scale, score))
    return fail(
      `the judge score ${JSON.stringify(score)} is off the scale ${
        scale.kind === 'pass_fail' ? '"pass" | "fail"' : `${scale.min}-${scale.max} (integers)`
      }`,
    );
  return {
    ok: true,
    score,
    value: toUnit(scale, score),
    reasoning: typeof reasoning === 'string' ? reasoning : '',
    repaired,
  };
}
