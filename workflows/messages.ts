import { defineQuery } from '@temporalio/workflow';

/** One experiment's progress as the run workflow knows it. */
export interface ExperimentProgress {
  id: string;
  total: number;
  done: number;
  errors: number;
  state: 'pending' | 'running' | 'completed';
  /** The slice workflow running now, whose own progress query adds the cases it has finished. */
  runningSlice?: string;
}

/** The run's progress: per experiment, from the slices that finished. */
export interface RunProgress {
  runId: string;
  experiments: ExperimentProgress[];
}

/** A slice's own progress, counted case by case. */
export interface SliceProgress {
  done: number;
  errors: number;
  total: number;
}

/** Asks the run workflow for its progress. */
export const runProgressQuery = defineQuery<RunProgress>('runProgress');
/** Asks a slice workflow how many of its cases are done. */
export const sliceProgressQuery = defineQuery<SliceProgress>('sliceProgress');
