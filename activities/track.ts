import { ApplicationFailure, Context } from '@temporalio/activity';
import type { CaseResult } from '../src/core/results.ts';
import { datasetSize, type RunInput } from '../src/core/run-input.ts';
import { buildSnapshot, oneExperiment, type RunHeader, type SnapshotCase } from '../src/core/snapshot.ts';
import { TRACK_ATTEMPTS } from '../src/core/retry.ts';
import type { Tracked, Tracking } from '../src/core/tracking.ts';
import { fromSnapshot } from '../src/trackers/from-snapshot.ts';
import { trackExperiment, type TrackerSuite } from '../src/trackers/track.ts';
import type { Env } from '../src/trackers/types.ts';
import { Budget } from './budget.ts';

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

/**
 * How many cases the experiments the track activities of one worker send at once may have in all. An experiment's
 * results, the rows made of them and its log took about 3 KB a case while it was sent: in `bench/big-run.ts 100000
 * 2`, four experiments of 25,000 cases closing together raised the worker's heap by 120-150 MB; one at a time, by about
 * 75. Runs of usual sizes send all their experiments at once, as before; an experiment this large is sent alone.
 */
const TRACKED_AT_ONCE = 20_000;

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
  const budget = new Budget(TRACKED_AT_ONCE);
  return async function track(task: TrackTask): Promise<Tracked> {
    const context = Context.current();
    // The input first, for the experiment's size; then its results, once the budget has room for them.
    const { input, header } = await deps.runs.inputOf(task.runId);
    const dataset = input.experiments.find((e) => e.id === task.experimentId)?.dataset;
    const size = dataset === undefined ? 0 : datasetSize(input, dataset);
    const tracked = await budget.run(size, async () => {
      const results = await deps.runs.results(task.runId, [task.experimentId]);
      // This experiment's snapshot alone: its dataset's cases, not the suite's.
      const cases: SnapshotCase[] = [];
      for (const c of deps.cases.values()) if (dataset === undefined || c.dataset === dataset) cases.push(c);
      const snapshot = buildSnapshot(
        {
          runId: task.runId,
          header,
          input: oneExperiment(input, task.experimentId),
          status: 'partial',
          results,
          cases,
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
      return trackExperiment(experiment, {
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
    });
    if (tracked.problem && context.info.attempt < TRACK_ATTEMPTS) {
      throw ApplicationFailure.create({ type: 'TrackerFailed', message: tracked.problem });
    }
    return tracked;
  };
}
