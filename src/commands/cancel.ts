import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { projectOf } from '../session/open-suite.ts';
import type { StatusFlags } from '../cli/options.ts';
import { linkForCommand } from '../session/link.ts';

/** `cancel RUN` (D4): cancels the run's workflow and with it every experiment still running. */
export async function cancelCommand(runId: string, flags: StatusFlags, io: Io): Promise<number> {
  const link = await linkForCommand(projectOf(flags, io), io, 'cancel');
  try {
    await link.runs.cancel(runId);
    io.stdout.write(`${pc.yellow('cancelled')} run ${runId}\n`);
    return 0;
  } finally {
    await link.close();
  }
}
