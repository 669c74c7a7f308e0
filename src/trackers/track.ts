import type { Tracked, Tracking } from '../core/tracking.ts';
import { REMOTE_TRACKERS } from './builtin.ts';
import { missingKey } from './check.ts';
import { localTracker } from './local.ts';
import { sendExperiment } from './send.ts';
import type { Env, TrackedExperiment, Tracker, TrackerDefinition, TrackerLog } from './types.ts';

/** What a process knows of the suite it sends for: its name, project folder, lineup sections and helper's trackers. */
export interface TrackerSuite {
  name: string;
  projectDir: string;
  configFile?: string;
  /** Each tracker's own lineup section, by tracker name. */
  sections: Readonly<Record<string, Record<string, unknown>>>;
  /** The helper's own trackers, looked up after the built-in ones. */
  trackers: readonly TrackerDefinition[];
}

/** Where a process sends an experiment: the suite, the run's tracking choice, its own env (the keys) and a log. */
export interface TrackTarget {
  suite: TrackerSuite;
  tracking: Tracking;
  env: Env;
  log: TrackerLog;
}

/** The remote trackers a suite can name: the built-in ones, then its helper's. */
export function remoteTrackers(suite: Pick<TrackerSuite, 'trackers'>): TrackerDefinition[] {
  return [...REMOTE_TRACKERS, ...suite.trackers];
}

/** The variable that gives a tracker a project id (`BRAINTRUST_PROJECT_ID`): `<NAME>_PROJECT_ID`. */
export function projectIdKey(tracker: string): string {
  return `${tracker.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_PROJECT_ID`;
}

/** Makes a tracker for a run with its context: suite, project, project id, its own section, env and log. */
export function createTracker(definition: TrackerDefinition, target: TrackTarget): Tracker {
  const { suite, tracking, env, log } = target;
  const projectId = env[projectIdKey(definition.name)]?.trim();
  return definition.create({
    suite: suite.name,
    project: tracking.project,
    ...(projectId ? { projectId } : {}),
    projectDir: suite.projectDir,
    config: suite.sections[definition.name] ?? {},
    ...(suite.configFile ? { configFile: suite.configFile } : {}),
    env,
    log,
  });
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The run's remote tracker made in this process, or the reason it cannot be: unknown here, or its key unset. */
function remoteTracker(target: TrackTarget): { tracker?: Tracker; problem?: string } {
  const name = target.tracking.tracker!;
  const definition = remoteTrackers(target.suite).find((t) => t.name === name);
  if (!definition) return { problem: `${name}: this process's suite registers no tracker ${name}` };
  const key = missingKey(definition, target.env);
  if (key) return { problem: `${name}: ${key} is not set in this process's environment` };
  try {
    return { tracker: createTracker(definition, target) };
  } catch (error) {
    return { problem: `${name}: ${message(error)}` };
  }
}

/**
 * Sends one experiment to the local log, then to the run's remote tracker: the log is written whatever the
 * remote one does, and a failure comes back as `problem`, never thrown.
 */
export async function trackExperiment(experiment: TrackedExperiment, target: TrackTarget): Promise<Tracked> {
  const tracked: Tracked = {};
  const local = await sendExperiment(createTracker(localTracker, target), experiment);
  if (local.url) tracked.log = local.url;
  if (local.problem) target.log.warn(`local log: ${local.problem.message}`);
  if (!target.tracking.tracker) return tracked;
  const { tracker, problem } = remoteTracker(target);
  if (!tracker) return { ...tracked, problem };
  const remote = await sendExperiment(tracker, experiment);
  if (remote.url) tracked.url = remote.url;
  if (remote.problem) tracked.problem = remote.problem.message;
  return tracked;
}
