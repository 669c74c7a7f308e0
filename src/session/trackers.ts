import type { Io } from '../cli/io.ts';
import type { TrackingChoice } from '../core/request.ts';
import type { Tracking } from '../core/tracking.ts';
import { ConfigError } from '../errors.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { checkTracker } from '../trackers/check.ts';
import { LOCAL_LOG_DIR } from '../trackers/local.ts';
import { selectTracker } from '../trackers/select.ts';
import { remoteTrackers, type TrackerSuite } from '../trackers/track.ts';

/** What the trackers of a loaded suite need: its name, project folder, lineup sections and helper's trackers. */
export function trackerSuite(suite: LoadedSuite): TrackerSuite {
  return {
    name: suite.name,
    projectDir: suite.projectDir,
    configFile: suite.config.file,
    sections: suite.config.trackers,
    trackers: suite.trackers,
  };
}

/** The tracker project: `--project`, else the lineup's `project`, else the suite's name. */
export function trackerProject(suite: LoadedSuite, project: string | undefined): string {
  return project ?? suite.config.values.project ?? suite.name;
}

/**
 * Chooses the run's remote tracker — `--local`/`--tracker`, the lineup's `tracker:`, then the one key set — and
 * fails before any call when it lacks its package or key. `-v` says which and why. Returns what the run records.
 */
export async function chooseTracking(
  suite: LoadedSuite,
  choice: TrackingChoice,
  verbose: boolean | undefined,
  io: Io,
): Promise<Tracking> {
  const { tracker, reason } = selectTracker({
    asked: choice.tracker,
    local: choice.local,
    configured: suite.config.values.tracker,
    configFile: suite.config.file,
    env: io.env,
    trackers: remoteTrackers(suite),
  });
  if (tracker) await checkTracker(tracker, io.env, suite.projectDir);
  if (verbose) io.stderr.write(`tracker ${reason}; the local log goes to ${LOCAL_LOG_DIR}/\n`);
  return { ...(tracker ? { tracker: tracker.name } : {}), project: trackerProject(suite, choice.project) };
}

/**
 * Checks, before a worker serves a run again, that this process can send to the tracker the run chose when it
 * started: registered here, its package importable and its key set.
 */
export async function checkTracking(
  suite: LoadedSuite,
  runId: string,
  tracking: Tracking | undefined,
  verbose: boolean | undefined,
  io: Io,
): Promise<void> {
  const name = tracking?.tracker;
  if (verbose) {
    const what = name
      ? `${name}, chosen when run ${runId} started`
      : 'none: the run sends to the local log only';
    io.stderr.write(`tracker ${what}\n`);
  }
  if (!name) return;
  const tracker = remoteTrackers(suite).find((t) => t.name === name);
  if (!tracker) {
    throw new ConfigError(
      suite.discovery.helperFile,
      'trackers',
      `run ${runId} sends to the tracker ${JSON.stringify(name)}, which this suite does not register`,
    );
  }
  await checkTracker(tracker, io.env, suite.projectDir);
}
