import { z } from 'zod';
import type { CompletionRequest, Json } from '../api/types.ts';
import type { CaseResult } from './results.ts';

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
 * Tokens a judge's reasoning is guessed to take with no run to measure it by: the one short sentence the judge's
 * prompt asks for (`<a short explanation>`), about twenty words.
 */
export const REASONING_TOKENS = 24;

/**
 * Tokens a verdict is guessed to take before any run measured one: `{"reasoning": "…", "score": …}`, its frame and
 * score counted as written (`score` the scale's longest, `"pass"` or its top), its reasoning a short sentence.
 */
export function guessedVerdictTokens(score: string | number): number {
  return estimateReplyTokens(JSON.stringify({ reasoning: '', score })) + REASONING_TOKENS;
}

/**
 * Tokens a verdict took in a saved run: the judge's output tokens over the verdicts asked (calls made and those the
 * reply cache gave, whose tokens a result counts alike); `undefined` when the run judged nothing or its provider
 * said no tokens.
 */
export function measuredVerdictTokens(
  results: readonly Pick<CaseResult, 'diagnostics'>[],
): number | undefined {
  let tokens = 0;
  let verdicts = 0;
  for (const { diagnostics: d } of results) {
    const out = d.judge_tokens_out;
    if (typeof out !== 'number') continue;
    const asked = Number(d.judge_calls ?? 0) + Number(d.judge_cached ?? 0);
    if (!(asked > 0)) continue;
    tokens += out;
    verdicts += asked;
  }
  return verdicts > 0 ? tokens / verdicts : undefined;
}

/**
 * What the judge of a run will be asked: replies judged, verdicts per reply and judge, the panel's size, and with
 * `--pairwise` the pairs (B's cases), each read by every judge in both orders.
 */
export interface JudgeLoad {
  replies: number;
  samples: number;
  members: number;
  pairs?: number;
}

/** One judge's prompts over a run (`verdicts` for one sample of each reply, `pairs` both orders of every pair). */
export interface JudgeTokens {
  verdicts: number;
  pairs?: number;
  /** Tokens each verdict or pairwise reading writes. */
  perVerdict: number;
}

/**
 * The judge's share of a run's estimate: a call per reply, sample and panel member, and two per pair and member
 * (each member pays every prompt); dollars from each member's per-token prices, unknown if any is.
 */
export function judgeEstimate(
  load: JudgeLoad,
  tokens: JudgeTokens,
  prices: readonly ({ inputPrice?: number; outputPrice?: number } | undefined)[],
): Estimate {
  const calls = load.replies * load.samples + 2 * (load.pairs ?? 0);
  const perMember = {
    calls,
    inputTokens: tokens.verdicts * load.samples + (tokens.pairs ?? 0),
    outputTokens: Math.round(calls * tokens.perVerdict),
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

/**
 * Tokens a request is billed for when it holds a conversation, as chat providers bill one: the system prompt, then
 * each message's text and tool calls (as the model wrote them, JSON) with its template markers, and the tools'
 * definitions; a request without messages as `estimateRequestTokens` counts it.
 */
export function estimateConversationTokens(request: CompletionRequest): number {
  if (!request.messages?.length) return estimateRequestTokens(request);
  const system = request.system ? estimateTokens(request.system) + MESSAGE_OVERHEAD : 0;
  const tools = request.tools?.length ? estimateTokens(JSON.stringify(request.tools)) : 0;
  return request.messages.reduce(
    (sum, m) =>
      sum +
      estimateTokens(m.content ?? '') +
      (m.toolCalls?.length ? estimateTokens(JSON.stringify(m.toolCalls)) : 0) +
      MESSAGE_OVERHEAD,
    REPLY_OVERHEAD + system + tools,
  );
}
