import type { Json } from '../api/types.ts';
import type { CaseRecord, ExperimentInfo } from './types.ts';

/** One event of Braintrust's experiment insert API: a row keyed by `id`, so sending it again replaces it. */
export interface BraintrustRow {
  id: string;
  input: Json;
  expected: Json;
  output: Json;
  error?: string;
  scores: Record<string, number | null>;
  metadata: Record<string, Json>;
  metrics: Record<string, number>;
  created: string;
}

const seconds = (iso: string) => Date.parse(iso) / 1000;

/** Braintrust takes scores in 0..1 only: a metric outside it (a count, a duration) is kept in the metadata alone. */
const isScore = (value: number | null): boolean => value === null || (value >= 0 && value <= 1);

/**
 * A case as Braintrust's row: input, expected, output or error, the score and the scorer's metrics as scores,
 * and the contender, diagnostics, outcomes and usage as metadata.
 */
export function braintrustRow(e: ExperimentInfo, r: CaseRecord): BraintrustRow {
  const scores = Object.fromEntries(
    Object.entries({ score: r.score, ...r.metrics }).filter(([, v]) => isScore(v)),
  );
  const { inputTokens, outputTokens } = r.usage;
  const tokens: Record<string, number> = {};
  if (inputTokens !== null) tokens.prompt_tokens = inputTokens;
  if (outputTokens !== null) tokens.completion_tokens = outputTokens;
  if (inputTokens !== null || outputTokens !== null) tokens.tokens = (inputTokens ?? 0) + (outputTokens ?? 0);
  return {
    id: r.idempotencyId,
    input: r.input,
    expected: r.expected,
    output: r.output ?? r.reply ?? null,
    ...(r.error === undefined ? {} : { error: r.error }),
    scores,
    metadata: {
      run_id: r.runId,
      experiment_id: r.experimentId,
      contender: e.contender.key,
      model: e.contender.id,
      provider: e.contender.provider,
      effort: e.contender.effort,
      temperature: e.contender.temperature,
      max_tokens: e.contender.maxTokens,
      dataset: r.dataset,
      variant: r.variant,
      case: r.caseId,
      status: r.status,
      attempts: r.attempts,
      metrics: r.metrics,
      outcomes: r.outcomes,
      diagnostics: r.diagnostics,
      usage: { ...r.usage },
      case_metadata: r.metadata,
    },
    metrics: { start: seconds(r.startedAt), end: seconds(r.finishedAt), ...tokens },
    created: r.finishedAt,
  };
}
