import type { ExperimentStatus } from './progress.ts';
import type { Tracked } from './tracking.ts';

/** Upper bound on experiments in flight, far below Temporal's 2,000 pending children per workflow. */
export const MAX_EXPERIMENTS_AT_ONCE = 500;

/** What a run carries across continue-as-new: per finished experiment its counts, and whether the run stopped. */
export interface RunCarry {
  done: Record<string, { cases: number; errors: number; stopped?: boolean }>;
  stopped?: boolean;
  /** How each finished experiment was tracked, once its track activity has ended. */
  tracked?: Record<string, Tracked>;
}

/** How many experiments run at once: `-j` (0 = all), at least one, at most MAX_EXPERIMENTS_AT_ONCE. */
export function experimentsAtOnce(concurrency: number, experiments: number): number {
  const wanted = concurrency === 0 ? experiments : concurrency;
  return Math.max(1, Math.min(wanted, MAX_EXPERIMENTS_AT_ONCE));
}

/**
 * The experiments to start now, in plan order: none once the run stopped or is draining for continue-as-new;
 * otherwise enough of those not yet started or finished to run `atOnce` at once.
 */
export function experimentsToStart(
  order: readonly string[],
  carry: RunCarry,
  running: ReadonlySet<string>,
  atOnce: number,
  draining: boolean,
): string[] {
  if (carry.stopped || draining) return [];
  const free = atOnce - running.size;
  if (free <= 0) return [];
  return order.filter((id) => !(id in carry.done) && !running.has(id)).slice(0, free);
}

/** Whether the run has nothing left to start or wait for. */
export function runFinished(
  order: readonly string[],
  carry: RunCarry,
  running: ReadonlySet<string>,
): boolean {
  return running.size === 0 && (carry.stopped === true || order.every((id) => id in carry.done));
}

/** Each experiment's state for the progress view, from the carry and the children running now. */
export function experimentStates(
  experiments: readonly { id: string; total: number }[],
  carry: RunCarry,
  running: ReadonlySet<string>,
): ExperimentStatus[] {
  return experiments.map(({ id, total }) => {
    const done = carry.done[id];
    if (done) {
      const state = done.stopped ? 'stopped' : 'completed';
      return { id, total, done: done.cases, errors: done.errors, state };
    }
    return { id, total, done: 0, errors: 0, state: running.has(id) ? 'running' : 'pending' };
  });
}
