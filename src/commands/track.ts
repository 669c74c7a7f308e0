import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { TrackFlags } from '../cli/options.ts';
import type { Snapshot } from '../core/snapshot.ts';
import type { Tracking } from '../core/tracking.ts';
import { ConfigError } from '../errors.ts';
import { readSnapshot } from '../output/save.ts';
import { collectSnapshot } from '../session/collect.ts';
import { linkForCommand } from '../session/link.ts';
import { openSuite } from '../session/open-suite.ts';
import { suitePlaceOf, trackingChoiceOf } from './request.ts';
import { checkTracking, chooseTracking, trackerProject, trackerSuite } from '../session/trackers.ts';
import { loadCases, shortPath } from '../suite/cases.ts';
import { loadEnvFiles, type LoadedSuite } from '../suite/load.ts';
import { fromSnapshot } from '../trackers/from-snapshot.ts';
import { trackExperiment } from '../trackers/track.ts';

/** A finished run's snapshot: from a saved file, or rebuilt from Temporal by its run id. */
async function finishedRun(target: string, suite: LoadedSuite, io: Io): Promise<Snapshot> {
  const file = resolve(io.cwd, target);
  if (target.endsWith('.json') && existsSync(file)) return readSnapshot(file);
  const link = await linkForCommand(suite.projectDir, io, 'track');
  try {
    return await collectSnapshot(link, loadCases(suite.root, suite.casesGlob).cases, target);
  } finally {
    await link.close();
  }
}

/** The tracking to send with: the flags' choice, else the run's own remote tracker, else the usual selection. */
async function trackingFor(
  snapshot: Snapshot,
  suite: LoadedSuite,
  flags: TrackFlags,
  io: Io,
): Promise<Tracking> {
  if (flags.tracker === undefined && !flags.local && snapshot.tracker) {
    const tracking = { tracker: snapshot.tracker, project: trackerProject(suite, flags.project) };
    await checkTracking(suite, snapshot.runId, tracking, flags.verbose, io);
    return tracking;
  }
  return chooseTracking(suite, trackingChoiceOf(flags), flags.verbose, io);
}

/**
 * `track RUN|FILE`: sends a finished run's experiments again — to the local log and the remote tracker — from
 * Temporal or a saved snapshot, with the same ids, so a tracker that stores by id ends with one row per case.
 */
export async function trackCommand(target: string, flags: TrackFlags, io: Io): Promise<number> {
  const suite = await openSuite(suitePlaceOf(flags), io);
  loadEnvFiles(suite.root, suite.envFiles, io.env);
  const snapshot = await finishedRun(target, suite, io);
  if (snapshot.status === 'partial') {
    throw new ConfigError(undefined, 'run', `${snapshot.runId} has not finished yet; track it once it has`);
  }
  const tracking = await trackingFor(snapshot, suite, flags, io);
  const log = {
    info: (m: string) => (flags.verbose ? io.stderr.write(pc.dim(m) + '\n') : undefined),
    warn: (m: string) => io.stderr.write(pc.yellow(`warning: ${m}`) + '\n'),
  };
  const sendTo = { suite: trackerSuite(suite), tracking, env: io.env, log };
  const pages = new Set<string>();
  let failed = 0;
  for (const experiment of fromSnapshot(snapshot, { project: tracking.project })) {
    const tracked = await trackExperiment(experiment, sendTo);
    const id = experiment.experiment.experimentId;
    if (tracked.url) pages.add(tracked.url);
    if (tracked.problem) {
      failed++;
      io.stderr.write(pc.red(`${id}: ${tracked.problem}`) + '\n');
    } else if (flags.verbose && tracked.log) {
      io.stderr.write(`${id}: ${shortPath(io.cwd, tracked.log)}\n`);
    }
  }
  const total = snapshot.experiments.length;
  const where = tracking.tracker ? `${tracking.tracker} and the local log` : 'the local log';
  io.stderr.write(
    `run ${pc.bold(snapshot.runId)}: ${total - failed} of ${total} experiments sent to ${where}\n`,
  );
  for (const page of pages) io.stdout.write(`${page}\n`);
  return failed > 0 ? 1 : 0;
}
