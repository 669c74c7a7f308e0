import { ApplicationFailure, Context } from '@temporalio/activity';
import type { CaseResult } from '../src/core/results.ts';
import type { RunInput } from '../src/core/run-input.ts';
import { buildSnapshot, type RunHeader, type SnapshotCase } from '../src/core/snapshot.ts';
import { TRACK_ATTEMPTS } from '../src/core/retry.ts';
import type { Tracked, Tracking } from '../src/core/tracking.ts';
import { fromSnapshot } from '../src/trackers/from-snapshot.ts';
import { trackExperiment, type TrackerSuite } from '../src/trackers/track.ts';
import type { Env } from '../src/trackers/types.ts';

/** How the track activity reads a run from Temporal: its input and header, and an experiment's results. */
export interface RunReader {
  inputOf(runId: string): Promise<{ input: RunInput; header: RunHeader }>;
  results(runId: string, experimentIds: readonly string[]): Promise<CaseResult[]>;
}

/** What the track activity needs of its worker: Temporal to read from, the suite's cases and trackers, its env. */
export interface TrackDeps {
  runs: RunReader;
  cases: ReadonlyMap<string, SnapshotCase>;
  trackers: TrackerSuite;
  env: Env;
}

/** One finished experiment to send: which run and experiment, and where the run sends (names only, no keys). */
export interface TrackTask {
  runId: string;
  experimentId: string;
  tracking: Tracking;
}

/**
 * Builds the track activity: once an experiment has completed, reads its results from Temporal and sends them to the
 * local log and the run's remote tracker. A failing remote tracker is retried, then reported as the result's
 * `problem`; the ids it sends are stable (run, experiment, case), so a retry or a resend stores no duplicate.
 */
export function createTrack(deps: TrackDeps) {
  return async function track(task: TrackTask): Promise<Tracked> {
    const context = Context.current();
    // Both reads at once: on the run's last experiment this activity is all that stands before the run closes.
    const [{ input, header }, results] = await Promise.all([
      deps.runs.inputOf(task.runId),
      deps.runs.results(task.runId, [task.experimentId]),
    ]);
    const snapshot = buildSnapshot(
      {
        runId: task.runId,
        header,
        input,
        status: 'partial',
        results,
        cases: [...deps.cases.values()],
        finishedAt: new Date().toISOString(),
      },
      // A tracker sends results and means, none of the paired statistics.
      { statistics: false },
    );
    // Only this experiment's records and summary: a run's experiments are tracked one by one as each closes.
    const [experiment] = fromSnapshot(snapshot, {
      project: task.tracking.project,
      experimentId: task.experimentId,
    });
    if (!experiment) throw new Error(`run ${task.runId} has no experiment ${task.experimentId}`);
    const log = context.log;
    const tracked = await trackExperiment(experiment, {
      suite: deps.trackers,
      tracking: task.tracking,
      env: deps.env,
      log: {
        info: (m) => {
          log.info(m);
        },
        warn: (m) => {
          log.warn(m);
        },
      },
    });
    if (tracked.problem && context.info.attempt < TRACK_ATTEMPTS) {
      throw ApplicationFailure.create({ type: 'TrackerFailed', message: tracked.problem });
    }
    return tracked;
  };
}
