import { z } from 'zod';
import { UsageSchema, type Usage } from '../api/types.ts';

/** How a case ended: scored by the scorer, failed by the model's own reply (scored 0), or a transport error (no score). */
export const CaseStatusSchema = z.enum(['scored', 'reply_error', 'error']);
/** How a case ended: scored by the scorer, failed by the model's own reply (scored 0), or a transport error (no score). */
export type CaseStatus = z.infer<typeof CaseStatusSchema>;

/** One tool call of an agent's step as a result keeps it: the call, how its run ended, and its result's text (capped). */
export const RecordedCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  arguments: z.json(),
  /** ok, invented (no such tool), error (it threw); absent when the step ran no tool (the last step allowed). */
  status: z.enum(['ok', 'invented', 'error']).optional(),
  result: z.string().optional(),
});

/** One model step of an agent's trajectory as a result keeps it: what was sent, what came back and ran, its cost. */
export const TrajectoryStepSchema = z.object({
  index: z.number(),
  /** How many messages the step sent (the conversation so far). */
  sent: z.number(),
  text: z.string(),
  calls: z.array(RecordedCallSchema),
  usage: UsageSchema,
  latency: z.number().nullable(),
  status: z.enum(['tool_calls', 'answer', 'max_steps']),
});
/** One model step of an agent's trajectory as a result keeps it. */
export type TrajectoryStep = z.infer<typeof TrajectoryStepSchema>;

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
  /** An agent's steps (runAgent's reply), texts capped at STEP_TEXT_CAP and steps at TRAJECTORY_CAP in all. */
  trajectory: z.array(TrajectoryStepSchema).optional(),
  /** Steps left out of `trajectory` to keep the result small. */
  trajectoryCut: z.number().optional(),
});
/** One case's result as the workflow records it: plain JSON, the reply text capped. */
export type CaseResult = z.infer<typeof CaseResultSchema>;

/** How much of a reply's text a result keeps, so results stay well under Temporal's payload limit. */
export const REPLY_CAP = 16_384;

/** How much of each text of an agent's step (a reply, a tool's result, a call's arguments) a result keeps. */
export const STEP_TEXT_CAP = 2_000;
/** How many characters of steps a result keeps in all: later steps are counted in `trajectoryCut`, not kept. */
export const TRAJECTORY_CAP = 48_000;

const capText = (text: string) => (text.length > STEP_TEXT_CAP ? `${text.slice(0, STEP_TEXT_CAP)}…` : text);
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);

/** A call's arguments as kept: as they are, or their JSON's first STEP_TEXT_CAP characters when that is longer. */
function capArguments(value: unknown): z.infer<typeof RecordedCallSchema>['arguments'] {
  const text = JSON.stringify(value ?? {}) ?? '{}';
  return text.length > STEP_TEXT_CAP ? { cut: capText(text) } : (JSON.parse(text) as Record<string, never>);
}

/**
 * An agent reply's trajectory (runAgent's `trajectory`) as a result keeps it: each step's messages sent, reply text,
 * tool calls with how they ran and their results, tokens, latency and status, each text capped and the whole kept under
 * TRAJECTORY_CAP characters (the rest counted). Nothing for a reply without one. Pure: reads plain data only.
 */
export function capTrajectory(reply: unknown): { trajectory?: TrajectoryStep[]; trajectoryCut?: number } {
  const steps = isObject(reply) ? reply.trajectory : undefined;
  if (!Array.isArray(steps)) return {};
  const kept: TrajectoryStep[] = [];
  let size = 0;
  for (const step of steps as unknown[]) {
    if (!isObject(step)) continue;
    const replied = isObject(step.reply) ? step.reply : {};
    const runs = Array.isArray(step.toolRuns) ? (step.toolRuns as unknown[]).filter(isObject) : [];
    const calls = (Array.isArray(replied.toolCalls) ? (replied.toolCalls as unknown[]) : []).filter(isObject);
    const usage = isObject(step.usage) ? step.usage : {};
    const request = isObject(step.request) ? step.request : {};
    const record: TrajectoryStep = {
      index: typeof step.index === 'number' ? step.index : kept.length,
      sent: Array.isArray(request.messages) ? request.messages.length : 0,
      text: capText(typeof replied.text === 'string' ? replied.text : ''),
      calls: calls.map((call) => {
        const run = runs.find((r) => isObject(r.call) && r.call.id === call.id);
        const status = run?.status;
        return {
          id: String(call.id),
          name: String(call.name),
          arguments: capArguments(call.arguments),
          ...(status === 'ok' || status === 'invented' || status === 'error' ? { status } : {}),
          ...(typeof run?.result === 'string' ? { result: capText(run.result) } : {}),
        };
      }),
      usage: {
        inputTokens: numberOrNull(usage.inputTokens),
        outputTokens: numberOrNull(usage.outputTokens),
        costUsd: numberOrNull(usage.costUsd),
      },
      latency: numberOrNull(step.latency),
      status: step.status === 'answer' || step.status === 'max_steps' ? step.status : 'tool_calls',
    };
    size += JSON.stringify(record).length;
    if (size > TRAJECTORY_CAP) break;
    kept.push(record);
  }
  const cut = steps.length - kept.length;
  return { trajectory: kept, ...(cut > 0 ? { trajectoryCut: cut } : {}) };
}

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
