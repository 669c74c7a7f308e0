import { z } from 'zod';

/**
 * What a run records of its trackers when it starts: the remote tracker chosen, if any, and the tracker project.
 * Names only: every key stays in the environment of the workers that send.
 */
export const TrackingSchema = z.object({
  /** The remote tracker's name; none means the local log only. */
  tracker: z.string().optional(),
  /** The tracker project: `--project`, else the lineup's `project`, else the suite's name. */
  project: z.string(),
});

/** What a run records of its trackers when it starts. */
export type Tracking = z.infer<typeof TrackingSchema>;

/** How one experiment was tracked: its local log, the remote tracker's page, or why the remote tracker failed. */
export const TrackedSchema = z.object({
  log: z.string().optional(),
  url: z.string().optional(),
  problem: z.string().optional(),
});
/** How one experiment was tracked. */
export type Tracked = z.infer<typeof TrackedSchema>;

/** A tracker that failed to record an experiment: reported beside the results, never failing the run. */
export const TrackerProblemSchema = z.object({
  tracker: z.string(),
  experiment: z.string(),
  message: z.string(),
});
/** A tracker that failed to record an experiment. */
export type TrackerProblem = z.infer<typeof TrackerProblemSchema>;

/** The link `--scores` shows for an experiment: the remote tracker's page, else its local log. */
export function linkOf(tracked: Tracked): string | undefined {
  return tracked.url ?? tracked.log;
}
