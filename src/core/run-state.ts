/** The one vocabulary of a run's state, in `status`, `runs`, `report` and the snapshot. */
export const RUN_STATES = [
  'running',
  'paused',
  'completed',
  'aborted',
  'cancelled',
  'regressed',
  'failed',
] as const;

/** The state of a run. */
export type RunState = (typeof RUN_STATES)[number];

/**
 * A run's state from what Temporal holds: the run workflow's status, the state it ended with (when it completed),
 * and its gate's state (while it runs; paused or stopped live there).
 */
export function runStateOf(
  status: string,
  ended?: string,
  gate?: 'running' | 'paused' | 'aborted',
): RunState {
  switch (status) {
    case 'RUNNING':
      return gate === 'paused' ? 'paused' : gate === 'aborted' ? 'aborted' : 'running';
    case 'COMPLETED':
      return ended === 'aborted' || ended === 'regressed' ? ended : 'completed';
    case 'CANCELLED':
    case 'TERMINATED':
      return 'cancelled';
    default:
      return 'failed';
  }
}
