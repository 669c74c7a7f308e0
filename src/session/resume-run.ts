import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { attachAgreement } from './labels.ts';
import { openSuite } from './open-suite.ts';
import { whoFinishes } from '../core/run-version.ts';
import { ConfigError, Interrupted } from '../errors.ts';
import { VERSION } from '../package-root.ts';
import { saveRunSnapshot } from '../output/save.ts';
import { collectSnapshot } from './collect.ts';
import { linkForCommand } from './link.ts';
import { pausePolicy } from './pause.ts';
import { prepareSuite } from './prepare.ts';
import { presentRun } from './present.ts';
import { resumeHint, serveRun, suiteWorker } from './serve.ts';
import { checkTracking } from './trackers.ts';
import { warnKeyless } from './worker-keys.ts';
import { loadCases, shortPath, type LoadedCase } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { traceCommand } from '../client/engine-tracing.ts';
import type { RunInput } from '../core/run-input.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { beginRun } from './begin-run.ts';
import type { PlannedRun } from './plan-run.ts';
import { announceRetry, cannotRetry, retryErrorsHint, retryRequest, retryPlan } from './retry-errors.ts';
import { runPlanned } from './run.ts';
import { noteCacheUse } from './cache-use.ts';
import { sayBuild } from './build-line.ts';
import type { RunRequest } from '../core/request.ts';

/**
 * `resume RUN`: a worker plus the live view; the run continues where it stopped, finished cases are not called again.
 * With `retryErrors`, a run whose cases ended in errors is followed by a new run that calls those again.
 */
export async function resumeRun(
  runId: string,
  request: RunRequest,
  retryErrors: boolean,
  io: Io,
): Promise<number> {
  const suite = await openSuite(request.suite, io);
  const { cases } = loadCases(suite.root, suite.casesGlob);
  await prepareSuite(suite, io);
  // Engine tracing, when on, sends the spans of this process's worker before the command ends.
  const served = await traceCommand(io.env, 'llm-evals resume', () =>
    resumeServed(runId, suite, cases, request, io),
  );
  const { snapshot, file, input } = served;
  if (retryErrors) {
    const why = cannotRetry(snapshot);
    if (!why) {
      announceRetry(snapshot, io);
      return callAgain(retryPlan(suite, cases, snapshot, input, request.save), retryRequest(request), io);
    }
    io.stderr.write(`--retry-errors: ${why}\n`);
  }
  const code = await presentRun(snapshot, file, suite, request.show, io);
  const hint = retryErrorsHint(snapshot);
  if (hint) io.stderr.write(hint + '\n');
  return code;
}

async function resumeServed(
  runId: string,
  suite: LoadedSuite,
  cases: LoadedCase[],
  request: RunRequest,
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
    await checkTracking(suite, runId, record.input.tracking, request.suite.verbose, io);
    // Watched before the line that says so: whoever sees the run resumed may stop it at once.
    io.watchInterrupt?.();
    io.stderr.write(`resuming run ${pc.bold(runId)}\n`);
    io.lastWords?.(resumeHint(runId));
    warnKeyless(suite, io, record.input.contenders);
    const worker = await suiteWorker(link, record.taskQueue, { suite, cases }, io.env);
    if (worker.build) await sayBuild(link, runId, record, worker.build, io);
    const served = await serveRun(link, worker, runId, record.input, io, pausePolicy(request.yes, io));
    if (served === 'interrupted') {
      io.stderr.write(resumeHint(runId) + '\n');
      throw new Interrupted(`run ${runId} interrupted`);
    }
    const snapshot = await collectSnapshot(link, cases, runId);
    attachAgreement(snapshot, suite, io);
    const file = saveRunSnapshot(snapshot, suite, request.save);
    io.stderr.write(`snapshot saved: ${shortPath(io.cwd, file)}\n`);
    return { snapshot, file, input: record.input };
  } finally {
    await link.close();
  }
}

/** Runs the plan that calls a run's errored cases again, as `compare` runs its own: checks, run, save, report. */
async function callAgain(planned: PlannedRun, request: RunRequest, io: Io): Promise<number> {
  const begun = await beginRun(planned, request, io);
  const { snapshot, file } = await runPlanned(planned, request, io, 'resume', begun);
  io.stderr.write(`snapshot saved: ${shortPath(io.cwd, file)}\n`);
  const code = await presentRun(snapshot, file, planned.suite, request.show, io);
  await noteCacheUse(snapshot, io);
  const hint = retryErrorsHint(snapshot);
  if (hint) io.stderr.write(hint + '\n');
  return code;
}
