import type { BatchPolling } from './batch-settings.ts';
import { pauseDelay } from './experiment-state.ts';

export type { BatchPolling, BatchSettings } from './batch-settings.ts';

/** The waits a batch run uses unless `LLM_EVALS_BATCH_POLL` says otherwise: 30 s, doubling up to 10 minutes. */
export const DEFAULT_BATCH_POLL: [number, number] = [30, 600];

/** The most rounds an experiment sends: an adapter that makes a second call after its first reply needs a second. */
export const MAX_BATCH_ROUNDS = 5;

/** The statuses after which a batch changes no more (OpenAI's words). */
export const BATCH_ENDED: readonly string[] = ['completed', 'failed', 'expired', 'cancelled'];

/**
 * The failure type of a batch activity (submit, look, read, cancel) that a worker could not serve: it knows no
 * endpoint of that name, its endpoint has no batch API, or it lacks the endpoint's key. Temporal tries it again, on
 * whichever worker takes it next; the experiment schedules it again when every try met such a worker.
 */
export const BATCH_CANNOT_SERVE = 'BatchCannotServe';

/**
 * The seconds before Temporal tries again a batch activity a worker could not serve at its `attempt`-th try: a
 * paused experiment's pace (2 s doubling to 30 s), and no longer than the first look at a batch (`first`): a
 * worker that can serve it takes it within that, and the experiment's history gains nothing per try.
 */
export function cannotServeDelay(attempt: number, first: number): number {
  return Math.min(first, pauseDelay(attempt));
}

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
