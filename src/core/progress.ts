/** A batch an experiment waits on: where, which round, its requests done of total, when made and when it expires. */
export interface BatchWait {
  batchId: string;
  provider: string;
  round: number;
  done: number;
  total: number;
  /** Seconds since the epoch, as the provider states them. */
  submittedAt?: number;
  expiresAt?: number;
}

/** One experiment's progress as the run workflow knows it. */
export interface ExperimentStatus {
  id: string;
  total: number;
  done: number;
  errors: number;
  state: 'pending' | 'running' | 'completed' | 'stopped' | 'cancelled';
  /** The batch it waits on (a `--batch` run), as the experiment answered. */
  batch?: BatchWait;
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
  batch?: BatchWait;
}

/**
 * The progress to show after `shown`: never less done, or fewer errors, for an experiment than already shown for the
 * same run. A query answered from a worker that is still catching up (the server came back, a new worker replays)
 * can count less than a moment before; the view keeps what it already knew.
 */
export function neverBackwards(shown: RunProgress | undefined, next: RunProgress): RunProgress {
  if (!shown || shown.runId !== next.runId) return next;
  const before = new Map(shown.experiments.map((e) => [e.id, e]));
  return {
    ...next,
    experiments: next.experiments.map((e) => {
      const was = before.get(e.id);
      if (!was || (was.done <= e.done && was.errors <= e.errors)) return e;
      const state = e.state === 'pending' ? was.state : e.state;
      return { ...e, done: Math.max(was.done, e.done), errors: Math.max(was.errors, e.errors), state };
    }),
  };
}
