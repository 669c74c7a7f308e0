import type { ExperimentStatus } from '../core/progress.ts';
import type { RunState } from '../core/run-state.ts';
import type { Snapshot } from '../core/snapshot.ts';

/**
 * Each experiment's progress counted from a snapshot's results: for a run no worker answers for, and for a saved
 * snapshot. An unfinished experiment of a closed run went no further: it ended as the run did.
 */
export function countedProgress(snapshot: Snapshot, state: RunState, closed: boolean): ExperimentStatus[] {
  const done = new Map<string, number>();
  const errors = new Map<string, number>();
  for (const r of snapshot.results) {
    done.set(r.experimentId, (done.get(r.experimentId) ?? 0) + 1);
    if (r.status !== 'scored') errors.set(r.experimentId, (errors.get(r.experimentId) ?? 0) + 1);
  }
  return snapshot.experiments.map((e) => {
    const n = done.get(e.id) ?? 0;
    const total = e.caseKeys.length;
    const unfinished: ExperimentStatus['state'] = !closed
      ? n > 0
        ? 'running'
        : 'pending'
      : state === 'cancelled'
        ? 'cancelled'
        : 'stopped';
    return {
      id: e.id,
      total,
      done: n,
      errors: errors.get(e.id) ?? 0,
      state: n >= total ? 'completed' : unfinished,
    };
  });
}

/** The run state a saved snapshot's status stands for (`partial`: it was still going when saved). */
export function savedState(status: Snapshot['status']): RunState {
  return status === 'partial' ? 'running' : status;
}
