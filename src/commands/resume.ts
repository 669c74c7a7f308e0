import pc from 'picocolors';
import { Interrupted } from '../errors.ts';
import { loadCases, shortPath } from '../suite/cases.ts';
import { presentRun } from './compare.ts';
import { linkForCommand, prepareSuite, saveRunSnapshot } from './execute-run.ts';
import type { Io } from './io.ts';
import { openSuite } from './open-suite.ts';
import type { RunFlags } from './options.ts';
import { pausePolicy } from './pause.ts';
import { collectSnapshot, resumeHint, serveRun } from './run-session.ts';

/** `resume RUN` (D3, D4): a worker plus the live view; the run continues where it stopped, finished cases are not called again. */
export async function resumeCommand(runId: string, flags: RunFlags, io: Io): Promise<number> {
  const suite = await openSuite(flags, io);
  const { cases } = loadCases(suite.root, suite.casesGlob);
  await prepareSuite(suite, io);
  const link = await linkForCommand(suite.projectDir, io, 'resume');
  let file: string;
  try {
    io.stderr.write(`resuming run ${pc.bold(runId)}\n`);
    const served = await serveRun(link, { suite, cases }, runId, io, pausePolicy(flags.yes, io));
    if (served === 'interrupted') {
      io.stderr.write(resumeHint(runId) + '\n');
      throw new Interrupted(`run ${runId} interrupted`);
    }
    file = saveRunSnapshot(await collectSnapshot(link, cases, runId), suite, flags);
  } finally {
    await link.close();
  }
  io.stderr.write(`snapshot saved: ${shortPath(io.cwd, file)}\n`);
  return presentRun(file, suite, flags, io);
}
