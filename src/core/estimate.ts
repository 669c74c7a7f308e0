/** Rough tokens of a text: about four characters each, the usual rule of thumb for English. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** A dry run's guess for one experiment: calls, tokens in and out, and dollars when prices are known. */
export interface Estimate {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

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
