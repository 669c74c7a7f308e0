import { z } from 'zod';
import type { CompletionRequest, Json } from '../api/types.ts';

/** Letters a token holds: common words are one token, longer and rarer words split. */
const LETTERS_PER_TOKEN = 5;
/** Digits a token holds: GPT's tokenizers group three, Llama's and SmolLM's split each one. */
const DIGITS_PER_TOKEN = 2;
/** Marks a token holds: JSON's `{"`, `":"` and `","` are one token each. */
const MARKS_PER_TOKEN = 3;

/**
 * Tokens of a text by the rule byte-pair tokenizers follow, for a provider that cannot count them: a run of letters is a
 * token per five letters, a run of digits a token per two, a run of punctuation a token per three marks; a single
 * space joins the word after it, any other run of blanks is a token. Checked against SmolLM2's tokenizer on the example
 * suites' inputs, expected answers, schemas and replies, and on prose and code: within 13 % of it on each.
 */
export function estimateTokens(text: string): number {
  let tokens = 0;
  for (const piece of text.match(/\p{L}+|\p{N}+|[^\s\p{L}\p{N}]+|\s+/gu) ?? []) {
    if (/^\p{L}/u.test(piece)) tokens += Math.ceil(piece.length / LETTERS_PER_TOKEN);
    else if (/^\p{N}/u.test(piece)) tokens += Math.ceil(piece.length / DIGITS_PER_TOKEN);
    else if (/^\s/u.test(piece)) tokens += piece === ' ' ? 0 : 1;
    else tokens += Math.ceil(piece.length / MARKS_PER_TOKEN);
  }
  return tokens;
}

/** The token that ends a reply: generated, so providers bill it with the reply's own. */
export const REPLY_END_TOKENS = 1;

/** Tokens a provider bills for a reply of this text: its own, and the one that ended it. */
export function estimateReplyTokens(text: string): number {
  return estimateTokens(text) + REPLY_END_TOKENS;
}

/**
 * Tokens the reply to a case should take: its expected answer as chat models write JSON — indented by two spaces, as
 * expected.json files are — or a text answer as is, billed as a reply. Indented rather than compact because real
 * replies run longer than the bare answer (a field more, a longer value, a newline): on the real-model suite the
 * indented size came within 12 % of what SmolLM2 replied, the one-line size 20 to 40 % under it.
 */
export function expectedReplyTokens(expected: Json): number {
  return estimateReplyTokens(typeof expected === 'string' ? expected : JSON.stringify(expected, null, 2));
}

/** Tokens a chat template adds around each message (role markers), and once to open the reply. */
export const MESSAGE_OVERHEAD = 4;
/** Tokens a chat template adds to open the assistant's reply. */
export const REPLY_OVERHEAD = 3;

/** Tokens a completion request is billed for: each message's text plus its template markers (OpenAI's rule of thumb). */
export function estimateRequestTokens(request: CompletionRequest): number {
  const messages = [request.system, request.user].filter((m): m is string => m !== undefined && m !== '');
  return messages.reduce((sum, m) => sum + estimateTokens(m) + MESSAGE_OVERHEAD, REPLY_OVERHEAD);
}

/** A guess for one experiment, or a whole run: calls, tokens in and out, and dollars when prices are known. */
export const EstimateSchema = z.object({
  calls: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  costUsd: z.number().nullable(),
});
/** A guess for one experiment, or a whole run: calls, tokens in and out, and dollars when prices are known. */
export type Estimate = z.infer<typeof EstimateSchema>;

/** Adds estimates; the cost stays unknown if any part is. */
export function sumEstimates(parts: readonly Estimate[]): Estimate {
  return parts.reduce<Estimate>(
    (sum, e) => ({
      calls: sum.calls + e.calls,
      inputTokens: sum.inputTokens + e.inputTokens,
      outputTokens: sum.outputTokens + e.outputTokens,
      costUsd: sum.costUsd === null || e.costUsd === null ? null : sum.costUsd + e.costUsd,
    }),
    { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
  );
}

/**
 * Tokens a judge's verdict takes: `{"reasoning": "…", "score": …}` with a reasoning of two or three sentences, as the
 * judge's prompt asks for a short one.
 */
export const VERDICT_TOKENS = 60;

/** What the judge of a run will be asked: replies judged, verdicts per reply and judge, and the panel's size. */
export interface JudgeLoad {
  replies: number;
  samples: number;
  members: number;
}

/**
 * The judge's share of a run's estimate: a call per reply, sample and panel member (`inputTokens` is one member's
 * prompts over all replies, each member pays them); dollars from each member's per-token prices, unknown if any is.
 */
export function judgeEstimate(
  load: JudgeLoad,
  inputTokens: number,
  prices: readonly ({ inputPrice?: number; outputPrice?: number } | undefined)[],
): Estimate {
  const perMember = {
    calls: load.replies * load.samples,
    inputTokens: inputTokens * load.samples,
    outputTokens: load.replies * load.samples * VERDICT_TOKENS,
  };
  return sumEstimates(
    prices.map((price) => ({
      ...perMember,
      costUsd:
        price?.inputPrice !== undefined && price.outputPrice !== undefined
          ? perMember.inputTokens * price.inputPrice + perMember.outputTokens * price.outputPrice
          : null,
    })),
  );
}
