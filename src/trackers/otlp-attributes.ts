import type { Summary } from '../core/aggregate.ts';
import type { CaseRecord, ExperimentInfo } from './types.ts';

/** A span attribute's value as OpenTelemetry takes it; `null` never reaches a span. */
export type AttributeValue = string | number | boolean;

/** How much of a case's diagnostics a span carries: backends cut or drop far larger attributes on their own. */
export const DIAGNOSTICS_CAP = 4096;

/** Cuts text to at most `bytes` bytes of UTF-8 on a character boundary, ending in `…` when cut. */
export function cutUtf8(text: string, bytes: number): { text: string; cut: boolean } {
  if (Buffer.byteLength(text) <= bytes) return { text, cut: false };
  const room = bytes - Buffer.byteLength('…');
  let used = 0;
  let end = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (used + size > room) break;
    used += size;
    end += char.length;
  }
  return { text: `${text.slice(0, end)}…`, cut: true };
}

/** Sets each entry whose value is a number, string or boolean, under `prefix`. */
function present(prefix: string, values: Record<string, unknown>): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [key, value] of Object.entries(values)) {
    if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') {
      out[`${prefix}${key}`] = value;
    }
  }
  return out;
}

/** The experiment span's attributes as it starts: the run, the suite, the contender and its settings. */
export function experimentAttributes(e: ExperimentInfo): Record<string, AttributeValue> {
  return present('', {
    run_id: e.runId,
    experiment_id: e.experimentId,
    suite: e.suite,
    project: e.project,
    dataset: e.dataset,
    contender: e.contender.key,
    model: e.contender.id,
    provider: e.contender.provider,
    effort: e.contender.effort,
    temperature: e.contender.temperature,
    max_tokens: e.contender.maxTokens,
    case_count: e.caseCount,
  });
}

/** What the experiment span adds when it ends: the means per metric, errors, time, tokens and dollars. */
export function summaryAttributes(s: Summary): Record<string, AttributeValue> {
  return {
    ...present('mean.', { score: s.score, ...s.metrics }),
    ...present('', {
      cases_recorded: s.cases,
      errors: s.errors,
      time_s: s.time,
      latency_s: s.latency,
      p95_s: s.p95,
      'tokens.input': s.usage.inputTokens,
      'tokens.output': s.usage.outputTokens,
      cost_usd: s.usage.costUsd,
    }),
  };
}

/** A case span's attributes; the reply and output only with `include_replies`, the diagnostics cut at 4 KB. */
export function caseAttributes(
  r: CaseRecord,
  options: { includeReplies: boolean },
): Record<string, AttributeValue> {
  const diagnostics = cutUtf8(JSON.stringify(r.diagnostics), DIAGNOSTICS_CAP);
  return {
    ...present('', {
      idempotency_id: r.idempotencyId,
      'case.key': r.caseKey,
      'case.id': r.caseId,
      dataset: r.dataset,
      variant: r.variant,
      status: r.status,
      score: r.score,
      attempts: r.attempts,
      duration_s: r.duration,
      latency_s: r.latency,
      waited_s: r.waited,
      'tokens.input': r.usage.inputTokens,
      'tokens.output': r.usage.outputTokens,
      cost_usd: r.usage.costUsd,
      diagnostics: diagnostics.text,
      ...(diagnostics.cut ? { 'diagnostics.truncated': true } : {}),
    }),
    ...present('metric.', r.metrics),
    ...present('outcome.', r.outcomes),
    ...(options.includeReplies
      ? present('', {
          reply: r.reply,
          'reply.truncated': r.replyTruncated,
          output: r.output === undefined ? undefined : JSON.stringify(r.output),
        })
      : {}),
  };
}
