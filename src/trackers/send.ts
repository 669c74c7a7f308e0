import type { TrackerProblem } from '../core/tracking.ts';
import type { TrackedExperiment, Tracker } from './types.ts';

/** What sending one experiment gave: the tracker's page, or the problem that stopped it. */
export interface SendOutcome {
  url?: string;
  problem?: TrackerProblem;
}

/**
 * Sends one experiment to a tracker (start, each record in case order, finish) and never throws: a tracker that
 * fails (an HTTP 500, a refused connection, a bug) comes back as a problem, so a compare never fails because of one.
 */
export async function sendExperiment(tracker: Tracker, tracked: TrackedExperiment): Promise<SendOutcome> {
  const { experiment, records, summary } = tracked;
  try {
    if (!tracker.enabled()) return {};
    await tracker.start(experiment);
    for (const record of records) await tracker.record(record);
    const { url } = await tracker.finish(experiment, summary);
    return url ? { url } : {};
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { problem: { tracker: tracker.name, experiment: experiment.experimentId, message } };
  }
}
