import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { attachAgreement } from '../session/labels.ts';
import { openSuite } from '../session/open-suite.ts';
import type { RunFlags } from '../cli/options.ts';
import { whoFinishes } from '../core/run-version.ts';
import { ConfigError, Interrupted } from '../errors.ts';
import { VERSION } from '../package-root.ts';
import { saveRunSnapshot } from '../output/save.ts';
import { collectSnapshot } from '../session/collect.ts';
import { linkForCommand } from '../session/link.ts';
import { pausePolicy } from '../session/pause.ts';
import { prepareSuite } from '../session/prepare.ts';
import { presentRun } from '../session/present.ts';
import { resumeHint, serveRun, suiteWorker } from '../session/serve.ts';
import { checkTracking } from '../session/trackers.ts';
import { warnKeyless } from '../session/worker-keys.ts';
import { loadCases, shortPath, type LoadedCase } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { traceCommand } from '../client/engine-tracing.ts';
import type { RunInput } from '../core/run-input.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { beginRun } from '../session/begin-run.ts';
import type { PlannedRun } from '../session/plan-run.ts';
import {
  announceRetry,
  cannotRetry,
  retryErrorsHint,
  retryFlags,
  retryPlan,
} from '../session/retry-errors.ts';
import { runPlanned } from '../session/run.ts';
import { noteCacheUse } from './cache.ts';
import { buildLine } from './status.ts';
import type { TemporalLink } from '../client/connect.ts';
import type { RunRecord } from '../client/runs.ts';
import { currentUnlessSet, describeBuild, type Build } from '../client/versioning.ts';

/**
 * `resume RUN`: a worker plus the live view; the run continues where it stopped, finished cases are not called again.
 * With `--retry-errors`, a run whose cases ended in errors is followed by a new run that calls those again.
 */
export async function resumeCommand(runId: string, flags: RunFlags, io: Io): Promise<number> {
  const suite = await openSuite(flags, io);
  const { cases } = loadCases(suite.root, suite.casesGlob);
  await prepareSuite(suite, io);
  // Engine tracing, when on, sends the spans of this process's worker before the command ends.
  const served = await traceCommand(io.env, 'llm-evals resume', () =>
    resumeServed(runId, suite, cases, flags, io),
  );
  const { snapshot, file, input } = served;
  if (flags.retryErrors) {
    const why = cannotRetry(snapshot);
    if (!why) {
      announceRetry(snapshot, io);
      return callAgain(retryPlan(suite, cases, snapshot, input), retryFlags(flags), io);
    }
    io.stderr.write(`--retry-errors: ${why}\n`);
  }
  const code = await presentRun(snapshot, file, suite, flags, io);
  const hint = retryErrorsHint(snapshot);
  if (hint) io.stderr.write(hint + '\n');
  return code;
}

async function resumeServed(
  runId: string,
  suite: LoadedSuite,
  cases: LoadedCase[],
  flags: RunFlags,
  io: Io,
): Promise<{ snapshot: Snapshot; file: string; input: RunInput }> {
  const link = await linkForCommand(suite.projectDir, io, 'resume', true);
  try {
    const record = await link.runs.read(runId);
    const finisher = whoFinishes(record.startedBy, VERSION);
    if (!finisher.ok)
      throw new ConfigError(
        undefined,
        undefined,
        `run ${runId} was started by llm-evals ${finisher.use}, which this llm-evals ${VERSION} cannot finish: ` +
          `npx llm-evals@${finisher.use} resume ${runId}`,
      );
    await checkTracking(suite, runId, record.input.tracking, flags, io);
    // Watched before the line that says so: whoever sees the run resumed may stop it at once.
    io.watchInterrupt?.();
    io.stderr.write(`resuming run ${pc.bold(runId)}\n`);
    io.lastWords?.(resumeHint(runId));
    warnKeyless(suite, io, record.input.contenders);
    const worker = await suiteWorker(link, record.taskQueue, { suite, cases }, io.env);
    if (worker.build) await sayBuild(link, runId, record, worker.build, io);
    const served = await serveRun(link, worker, runId, record.input, io, pausePolicy(flags.yes, io));
    if (served === 'interrupted') {
      io.stderr.write(resumeHint(runId) + '\n');
      throw new Interrupted(`run ${runId} interrupted`);
    }
    const snapshot = await collectSnapshot(link, cases, runId);
    attachAgreement(snapshot, suite, io);
    const file = saveRunSnapshot(snapshot, suite, flags);
    io.stderr.write(`snapshot saved: ${shortPath(io.cwd, file)}\n`);
    return { snapshot, file, input: record.input };
  } finally {
    await link.close();
  }
}

/**
 * With Worker Versioning, whether this resume's worker can serve the run: one pinned to another build waits for a
 * worker of that build, said in `status`'s words and with what to do; one not pinned goes to the deployment's current
 * version, which this build becomes when there is none or no worker of it polls (said when it stays another's).
 */
async function sayBuild(
  link: TemporalLink,
  runId: string,
  record: RunRecord,
  own: Build,
  io: Io,
): Promise<void> {
  const pinned = record.build;
  // A closed run needs no worker: nothing to say, and no current version to set for it.
  if (record.closed) return;
  if (pinned) {
    if (pinned.deploymentName === own.deploymentName && pinned.buildId === own.buildId) return;
    const polling = (await link.runs.buildPollers(record.taskQueue, pinned)).length;
    io.stderr.write(buildLine({ ...pinned, polling }, false));
    return;
  }
  void currentUnlessSet(link.client, own, record.taskQueue)
    .then((current) => {
      if (current !== own.buildId)
        io.stderr.write(
          `run ${runId} is not pinned: it goes to ${describeBuild({ ...own, buildId: current })}, ` +
            `the current version, whose workers serve it (this checkout is build ${own.buildId})\n`,
        );
    })
    .catch(() => undefined);
}

/** Runs the plan that calls a run's errored cases again, as `compare` runs its own: checks, run, save, report. */
async function callAgain(planned: PlannedRun, flags: RunFlags, io: Io): Promise<number> {
  const begun = await beginRun(planned, flags, io);
  const { snapshot, file } = await runPlanned(planned, flags, io, 'resume', begun);
  io.stderr.write(`snapshot saved: ${shortPath(io.cwd, file)}\n`);
  const code = await presentRun(snapshot, file, planned.suite, flags, io);
  await noteCacheUse(snapshot, io);
  const hint = retryErrorsHint(snapshot);
  if (hint) io.stderr.write(hint + '\n');
  return code;
}
