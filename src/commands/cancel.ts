import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { projectOf } from '../session/open-suite.ts';
import type { StatusFlags } from '../cli/options.ts';
import { linkForCommand } from '../session/link.ts';

/**
 * `cancel RUN`: cancels the run and every experiment still running, and returns once no call can start: a
 * worker closed it, or, with none within seconds, Temporal ended it. A run that already ended is left as it is, and
 * the command says how it ended (exit 0: nothing is left to cancel).
 */
export async function cancelCommand(runId: string, flags: StatusFlags, io: Io): Promise<number> {
  const link = await linkForCommand(projectOf(flags, io), io, 'cancel');
  try {
    const { state } = await link.runs.stateOf(runId);
    if (state !== 'running' && state !== 'paused') {
      io.stdout.write(`run ${runId} is already ${pc.yellow(state)}: nothing to cancel\n`);
      return 0;
    }
    const how = await link.runs.cancel(runId);
    io.stdout.write(
      how === 'cancelled'
        ? `${pc.yellow('cancelled')} run ${runId}: no call starts from now on\n`
        : `${pc.yellow('cancelled')} run ${runId}: no worker closed it, so Temporal ended it\n`,
    );
    return 0;
  } finally {
    await link.close();
  }
}
