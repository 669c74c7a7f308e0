import { z } from 'zod';
import { UsageSchema, type Usage } from '../api/types.ts';

/** How a case ended: scored by the scorer, failed by the model's own reply (scored 0), or a transport error (no score). */
export const CaseStatusSchema = z.enum(['scored', 'reply_error', 'error']);
/** How a case ended: scored by the scorer, failed by the model's own reply (scored 0), or a transport error (no score). */
export type CaseStatus = z.infer<typeof CaseStatusSchema>;

/** One case's result as the workflow records it: plain JSON, the reply text capped. */
export const CaseResultSchema = z.object({
  experimentId: z.string(),
  caseKey: z.string(),
  status: CaseStatusSchema,
  /** 0..1; `null` for a transport error. */
  score: z.number().nullable(),
  metrics: z.record(z.string(), z.number().nullable()),
  outcomes: z.record(z.string(), z.number()),
  diagnostics: z.record(z.string(), z.json()),
  output: z.json().optional(),
  /** The model's reply text, capped at REPLY_CAP characters. */
  reply: z.string().optional(),
  replyTruncated: z.boolean().optional(),
  /** The provider stopped the reply at its token limit (`finish_reason: length`): raise max_tokens. */
  truncated: z.boolean().optional(),
  error: z.string().optional(),
  usage: UsageSchema,
  /** Seconds spent in provider calls that worked. */
  latency: z.number().nullable(),
  /** Seconds the case took, waits on limits excluded. */
  duration: z.number(),
  /** Seconds spent waiting on rate limits and vendor back-off before its calls. */
  waited: z.number().optional(),
  startedAt: z.string(),
  finishedAt: z.string(),
  /** Calls made for it: 1, or more when retried. */
  attempts: z.number(),
  /**
   * Replies of it came from the reply cache (`replies`; `calls` were made): latency, tokens and cost above are those
   * of the calls that paid for them, `paidUsd` what this run paid.
   */
  cached: z
    .object({
      replies: z.number(),
      calls: z.number(),
      paidUsd: z.number(),
      /** The runs whose calls or batches paid for those replies, as far as their cache entries say. */
      runs: z.array(z.string()).optional(),
    })
    .optional(),
  /**
   * Calls of it that this run's own batches answered (`--batch`), at the batch price, and those batches' ids (none
   * known for replies kept before the entries named their batch). Counted in `cached.calls` too when it has one.
   */
  batch: z.object({ calls: z.number(), ids: z.array(z.string()) }).optional(),
  /** `--cache-only` found no reply for it in the cache: it was not called, and reports leave it out. */
  skipped: z.literal(true).optional(),
});
/** One case's result as the workflow records it: plain JSON, the reply text capped. */
export type CaseResult = z.infer<typeof CaseResultSchema>;

/** How much of a reply's text a result keeps, so results stay well under Temporal's payload limit. */
export const REPLY_CAP = 16_384;

/** Caps a reply's text, saying whether it was cut. */
export function capReply(text: string | undefined): { reply?: string; replyTruncated?: boolean } {
  if (text === undefined) return {};
  return text.length > REPLY_CAP
    ? { reply: text.slice(0, REPLY_CAP), replyTruncated: true }
    : { reply: text };
}

/** What a reply error on a reply cut at the token limit starts with: the limit that cut it, so the fix is plain. */
export function cutNote(maxTokens: number | null): string {
  return maxTokens === null ? "cut at the server's default token limit" : `cut at max_tokens ${maxTokens}`;
}

/** An unknown usage: the provider said nothing. */
export const UNKNOWN_USAGE: Usage = { inputTokens: null, outputTokens: null, costUsd: null };

/** Adds usages; a part that is unknown leaves the sum unknown only if every part is. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: addKnown(a.inputTokens, b.inputTokens),
    outputTokens: addKnown(a.outputTokens, b.outputTokens),
    costUsd: addKnown(a.costUsd, b.costUsd),
  };
}

/** One usage figure added to another, as {@link addUsage} adds them: unknown only while both are. */
export function addKnown(sum: number | null, value: number | null): number | null {
  return sum === null ? value : value === null ? sum : sum + value;
}

/** The outcomes or diagnostics of a result that has none (a case's metadata too): one frozen record for all. */
export const NONE: Readonly<Record<string, never>> = Object.freeze({});

/** How many distinct sets of metric values, usages or experiment ids a {@link ResultSharing} keeps. */
const SHARED_SETS = 1_000;

/** How many distinct start and finish times a {@link ResultSharing} remembers before it starts over. */
const SHARED_TIMES = 4_096;

/**
 * Makes results decoded one by one share the parts most of them have in common, so that holding 200,000 of them
 * (a report of a big run) costs less: an empty `outcomes` or `diagnostics` becomes one frozen empty record; equal
 * `metrics` and equal `usage` one each, for the first {@link SHARED_SETS} of each seen (scores of 0 and 1 repeat, and a
 * fixed prompt's tokens; a continuous score rarely does, and is then left as it is); equal experiment ids one string,
 * among the last {@link SHARED_SETS} seen; and equal start or finish times one string, among the last
 * {@link SHARED_TIMES} seen (cases that started or ended in the same millisecond: 400,000 times of a 100,000 × 2 run
 * were 50,000 distinct).
 * Shared parts are frozen: a result is read, never changed in place.
 */
export class ResultSharing {
  private readonly metricSets = new Shared<CaseResult['metrics']>();
  private readonly usages = new Shared<Usage>();
  private readonly experimentIds = new StringPool(SHARED_SETS);
  private readonly times = new StringPool(SHARED_TIMES);

  /** The result, its parts now shared where they can be (it is changed in place: give it only a fresh one). */
  share(result: CaseResult): CaseResult {
    if (isEmpty(result.outcomes)) result.outcomes = NONE;
    if (isEmpty(result.diagnostics)) result.diagnostics = NONE;
    result.metrics = this.metricSets.of(result.metrics);
    result.usage = this.usages.of(result.usage);
    result.experimentId = this.experimentIds.of(result.experimentId);
    result.startedAt = this.times.of(result.startedAt);
    result.finishedAt = this.times.of(result.finishedAt);
    return result;
  }
}

/** Equal strings made one, among the last `size` distinct ones seen: it starts over when full. */
class StringPool {
  private readonly known = new Map<string, string>();

  constructor(private readonly size: number) {}

  of(text: string): string {
    const known = this.known.get(text);
    if (known !== undefined) return known;
    if (this.known.size >= this.size) this.known.clear();
    this.known.set(text, text);
    return text;
  }
}

/** Records equal as JSON made one frozen record, for the first {@link SHARED_SETS} seen. */
class Shared<T extends object> {
  private readonly known = new Map<string, T>();

  of(record: T): T {
    const key = JSON.stringify(record);
    const known = this.known.get(key);
    if (known) return known;
    if (this.known.size < SHARED_SETS) this.known.set(key, Object.freeze(record));
    return record;
  }
}

/** Whether a record has no key of its own (enumerable, as `for in` finds them). */
export function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}
