import type { Json, Usage } from '../api/types.ts';

/** How a case ended: scored by the scorer, failed by the model's own reply (scored 0), or a transport error (no score). */
export type CaseStatus = 'scored' | 'reply_error' | 'error';

/** What the activity says of a case it did not finish: the run is paused (try again later) or stopped (leave it). */
export type CaseDeferral = { deferred: 'paused' | 'stopped'; caseKey: string };

/** One case's result as the workflow records it: plain JSON, the reply text capped. */
export interface CaseResult {
  experimentId: string;
  caseKey: string;
  status: CaseStatus;
  /** 0..1; `null` for a transport error. */
  score: number | null;
  metrics: Record<string, number | null>;
  outcomes: Record<string, number>;
  diagnostics: Record<string, Json>;
  output?: Json;
  /** The model's reply text, capped at REPLY_CAP characters. */
  reply?: string;
  replyTruncated?: boolean;
  error?: string;
  usage: Usage;
  /** Seconds spent in provider calls that worked. */
  latency: number | null;
  /** Seconds the case took, waits on limits excluded. */
  duration: number;
  /** Seconds spent waiting on rate limits and vendor back-off before its calls. */
  waited?: number;
  startedAt: string;
  finishedAt: string;
  attempts: number;
}

/** How much of a reply's text a result keeps, so results stay well under Temporal's payload limit. */
export const REPLY_CAP = 16_384;

/** Caps a reply's text, saying whether it was cut. */
export function capReply(text: string | undefined): { reply?: string; replyTruncated?: boolean } {
  if (text === undefined) return {};
  return text.length > REPLY_CAP
    ? { reply: text.slice(0, REPLY_CAP), replyTruncated: true }
    : { reply: text };
}

/** An unknown usage: the provider said nothing. */
export const UNKNOWN_USAGE: Usage = { inputTokens: null, outputTokens: null, costUsd: null };

/** Adds usages; a part that is unknown leaves the sum unknown only if every part is. */
export function addUsage(a: Usage, b: Usage): Usage {
  const add = (x: number | null, y: number | null) => (x === null ? y : y === null ? x : x + y);
  return {
    inputTokens: add(a.inputTokens, b.inputTokens),
    outputTokens: add(a.outputTokens, b.outputTokens),
    costUsd: add(a.costUsd, b.costUsd),
  };
}
