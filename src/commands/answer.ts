import type { Io } from '../cli/io.ts';
import { projectOf } from '../session/open-suite.ts';
import type { StatusFlags } from '../cli/options.ts';
import { linkForCommand } from '../session/link.ts';

/** `continue RUN` / `stop RUN`: answers a paused run from any shell (S11); stopping reports what finished. */
export async function answerCommand(
  runId: string,
  goOn: boolean,
  flags: StatusFlags,
  io: Io,
): Promise<number> {
  const link = await linkForCommand(projectOf(flags, io), io, goOn ? 'continue' : 'stop');
  try {
    await link.runs.answerPause(runId, goOn);
    io.stdout.write(`${goOn ? 'going on with' : 'stopping'} run ${runId}\n`);
    return 0;
  } finally {
    await link.close();
  }
}
