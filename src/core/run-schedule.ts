import type { Contender } from './matrix.ts';
import type { ExperimentStatus } from './progress.ts';
import type { RunInput } from './run-input.ts';
import type { Tracked } from './tracking.ts';

/** Upper bound on experiments in flight, far below Temporal's 2,000 pending children per workflow. */
export const MAX_LANES = 500;

/** What a run carries across continue-as-new: per finished experiment its counts, and whether the run stopped. */
export interface RunCarry {
  done: Record<string, { cases: number; errors: number; stopped?: boolean }>;
  stopped?: boolean;
  /** How each finished experiment was tracked, once its track activity has ended. */
  tracked?: Record<string, Tracked>;
}

/** How many experiments run at once: `-j` (0 = all), at least one, at most MAX_LANES. */
export function laneCount(concurrency: number, experiments: number): number {
  const wanted = concurrency === 0 ? experiments : concurrency;
  return Math.max(1, Math.min(wanted, MAX_LANES));
}

/**
 * The experiments to start now, in plan order: none once the run stopped or is draining for continue-as-new;
 * otherwise enough of those not yet started or finished to fill the free lanes.
 */
export function experimentsToStart(
  order: readonly string[],
  carry: RunCarry,
  running: ReadonlySet<string>,
  lanes: number,
  draining: boolean,
): string[] {
  if (carry.stopped || draining) return [];
  const free = lanes - running.size;
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

/** A case a fresh run's own worker may call before Temporal has the run (see headStartCases). */
export interface HeadStartCase {
  experimentId: string;
  caseKey: string;
  caseHash: string;
  contender: Contender;
}

/**
 * The cases a fresh run's own worker can call while the run is still being made: in each experiment the run starts
 * first (experimentsToStart), its first 2 × `parallelism` cases — the head of its first pool's first lease
 * (firstLease), enough for its lanes to stay full for two calls each before the pool starts. A contender whose calls
 * wait on a rate limit has none: only the gate can give its slots.
 */
export function headStartCases(
  input: Pick<RunInput, 'experiments' | 'contenders' | 'datasets' | 'parallelism' | 'concurrency'>,
): HeadStartCase[] {
  const order = input.experiments.map((e) => e.id);
  const first = experimentsToStart(
    order,
    { done: {} },
    new Set(),
    laneCount(input.concurrency, order.length),
    false,
  );
  return input.experiments
    .filter((e) => first.includes(e.id))
    .flatMap((e) => {
      const contender = input.contenders[e.contender]!;
      if (contender.limits.length > 0) return [];
      return (input.datasets[e.dataset] ?? []).slice(0, 2 * input.parallelism).map(([caseKey, caseHash]) => ({
        experimentId: e.id,
        caseKey,
        caseHash,
        contender,
      }));
    });
}
