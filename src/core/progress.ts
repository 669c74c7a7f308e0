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
