/** One experiment's progress as the run workflow knows it. */
export interface ExperimentStatus {
  id: string;
  total: number;
  done: number;
  errors: number;
  state: 'pending' | 'running' | 'completed' | 'stopped' | 'cancelled';
}

/** The run's progress: per experiment, the counts of those that finished; running ones are asked themselves. */
export interface RunProgress {
  runId: string;
  experiments: ExperimentStatus[];
}

/** An experiment's own progress, counted case by case. */
export interface ExperimentProgress {
  done: number;
  errors: number;
  total: number;
}

/**
 * Progress as shown, never less than shown before for the same experiment: a worker or server that restarts answers
 * with zeros until it has counted again, and a live view that went from 48/72 back to 0/72 would say work was lost.
 * `shown` keeps the most shown per experiment and is updated.
 */
export function neverBack(
  shown: Map<string, { done: number; errors: number }>,
  progress: RunProgress,
): RunProgress {
  return {
    ...progress,
    experiments: progress.experiments.map((e) => {
      const before = shown.get(e.id);
      const done = Math.max(e.done, before?.done ?? 0);
      const errors = Math.max(e.errors, before?.errors ?? 0);
      shown.set(e.id, { done, errors });
      return done === e.done && errors === e.errors ? e : { ...e, done, errors };
    }),
  };
}
