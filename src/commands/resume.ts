import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
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

/** `resume RUN`: a worker plus the live view; the run continues where it stopped, finished cases are not called again. */
export async function resumeCommand(runId: string, flags: RunFlags, io: Io): Promise<number> {
  const suite = await openSuite(flags, io);
  const { cases } = loadCases(suite.root, suite.casesGlob);
  await prepareSuite(suite, io);
  // Engine tracing, when on, sends the spans of this process's worker before the command ends.
  return traceCommand(io.env, 'llm-evals resume', () => resumeServed(runId, suite, cases, flags, io));
}

async function resumeServed(
  runId: string,
  suite: LoadedSuite,
  cases: LoadedCase[],
  flags: RunFlags,
  io: Io,
): Promise<number> {
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
    const served = await serveRun(link, worker, runId, record.input, io, pausePolicy(flags.yes, io));
    if (served === 'interrupted') {
      io.stderr.write(resumeHint(runId) + '\n');
      throw new Interrupted(`run ${runId} interrupted`);
    }
    const snapshot = await collectSnapshot(link, cases, runId);
    const file = saveRunSnapshot(snapshot, suite, flags);
    io.stderr.write(`snapshot saved: ${shortPath(io.cwd, file)}\n`);
    return await presentRun(snapshot, file, suite, flags, io);
  } finally {
    await link.close();
  }
}
