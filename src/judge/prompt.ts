import type { Json } from '../api/types.ts';
import { scaleText, type Scale } from './config.ts';

/** What the judge is shown about one reply. */
export interface JudgeInput {
  input: string;
  /** The reply's raw text, as the model wrote it. */
  reply: string;
  /** The case's expected answer, when the judge is given the reference. */
  expected?: Json;
  rubric: string;
  scale: Scale;
}

/** The system message every judge call carries: the role and the verdict's exact form. */
export const JUDGE_SYSTEM =
  'You are a strict, impartial grader. Grade the reply against the rubric. Answer with one JSON object and nothing ' +
  'else: {"reasoning": "<a short explanation>", "score": <the score>}.';

function scaleRule(scale: Scale): string {
  return scale.kind === 'pass_fail'
    ? 'The score is the string "pass" or the string "fail".'
    : `The score is an integer from ${scale.min} (worst) to ${scale.max} (best).`;
}

const fence = (tag: string, body: string) => `<${tag}>\n${body}\n</${tag}>`;

/** The user message of a judge call: the case's input, the reply, the reference if given, the rubric and scale. */
export function judgePrompt(j: JudgeInput): string {
  const parts = [fence('input', j.input), fence('reply', j.reply)];
  if (j.expected !== undefined)
    parts.push(
      fence('expected', typeof j.expected === 'string' ? j.expected : JSON.stringify(j.expected, null, 2)),
    );
  parts.push(fence('rubric', j.rubric.trim()));
  parts.push(
    `Scale: ${scaleText(j.scale)}. ${scaleRule(j.scale)}\n` +
      'Reply with the JSON object {"reasoning": string, "score": ...} only.',
  );
  return parts.join('\n\n');
}
