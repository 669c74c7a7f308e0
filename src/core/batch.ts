import type { BatchPolling } from './batch-settings.ts';

export type { BatchPolling, BatchSettings } from './batch-settings.ts';

/** The waits a batch run uses unless `LLM_EVALS_BATCH_POLL` says otherwise: 30 s, doubling up to 10 minutes. */
export const DEFAULT_BATCH_POLL: [number, number] = [30, 600];

/** The most rounds an experiment sends: an adapter that makes a second call after its first reply needs a second. */
export const MAX_BATCH_ROUNDS = 5;

/** The statuses after which a batch changes no more (OpenAI's words). */
export const BATCH_ENDED: readonly string[] = ['completed', 'failed', 'expired', 'cancelled'];

/** The wait before the next look at a batch: twice the last one, within the run's bounds. */
export function nextPollDelay(previous: number | undefined, [first, last]: BatchPolling['poll']): number {
  if (previous === undefined) return first;
  return Math.min(last, Math.max(first, previous * 2));
}

/**
 * Reads `LLM_EVALS_BATCH_POLL` (`FIRST,LAST` seconds, e.g. `1,4`): a test's or a bench's shorter waits. Answers
 * undefined for a value that is not two positive numbers with the first not above the last.
 */
export function parseBatchPoll(text: string | undefined): [number, number] | undefined {
  if (text === undefined || text.trim() === '') return DEFAULT_BATCH_POLL;
  const parts = text.split(',').map((p) => Number(p.trim()));
  if (parts.length !== 2 || parts.some((n) => !Number.isFinite(n) || n <= 0)) return undefined;
  const [first, last] = parts as [number, number];
  return first <= last ? [first, last] : undefined;
}

/** The cost label of a run at the batch price: `batch, −50 %` for a discount of 0.5 (several discounts: each). */
export function batchLabel(discounts: Record<string, number>): string {
  const shares = [...new Set(Object.values(discounts))].sort((a, b) => b - a);
  return `batch, ${shares.map((d) => `−${Math.round(d * 100)} %`).join(' / ') || 'no discount'}`;
}
