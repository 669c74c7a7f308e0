import { z } from 'zod';
import type { CompletionRequest } from '../api/types.ts';

/**
 * Rough tokens of a text when the provider cannot count them: a token per four characters of prose, but at least one
 * per word or punctuation mark, since JSON, numbers and names split into shorter tokens than English words do.
 */
export function estimateTokens(text: string): number {
  const pieces = text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)?.length ?? 0;
  return Math.max(Math.ceil(text.length / 4), pieces);
}

/** Tokens a chat template adds around each message (role markers), and once to open the reply. */
export const MESSAGE_OVERHEAD = 4;
/** Tokens a chat template adds to open the assistant's reply. */
export const REPLY_OVERHEAD = 3;

/** Rough tokens a completion request sends: each message's text plus its template markers (OpenAI's rule of thumb). */
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
