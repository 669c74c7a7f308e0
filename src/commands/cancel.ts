import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { projectOf } from '../session/open-suite.ts';
import type { StatusFlags } from '../cli/options.ts';
import { linkForCommand } from '../session/link.ts';
import { callsInFlight as callsIn, waitedClauses } from '../core/cancel-wait.ts';

/**
 * `cancel RUN`: cancels the run and every experiment still running, and returns once no call can start: a
 * worker closed it, or, with none serving it, Temporal ended it. While a worker serves it, the calls it has in flight
 * are waited for, however long they take, so that their replies, paid for, are recorded (those of a worker that
 * stopped answering are lost, and cancel says so); Ctrl-C stops waiting and
 * leaves the run cancelled for that worker to close (exit 130). A run that already ended is left as it is, and the
 * command says how it ended (exit 0: nothing is left to cancel).
 */
export async function cancelCommand(runId: string, flags: StatusFlags, io: Io): Promise<number> {
  const link = await linkForCommand(projectOf(flags, io), io, 'cancel');
  try {
    const { state } = await link.runs.stateOf(runId);
    if (state !== 'running' && state !== 'paused') {
      // A cancel that stopped waiting left the gate to the one that sees the run closed.
      if (state === 'cancelled') await link.runs.endGate(runId);
      io.stdout.write(`run ${runId} is already ${pc.yellow(state)}: nothing to cancel\n`);
      return 0;
    }
    const stop = io.watchInterrupt?.();
    const { how, waitedFor, calls } = await link.runs.cancelAndWait(runId, {
      ...(stop ? { stop } : {}),
      onWaiting: (inFlight) =>
        io.stderr.write(
          (inFlight > 0
            ? `waiting for ${callsIn(inFlight)} to finish`
            : 'waiting for the worker serving it to close it') +
            ' (Ctrl-C to stop waiting; the run is cancelled either way)\n',
        ),
    });
    if (how === 'left') {
      io.stderr.write(
        `stopped waiting: run ${runId} is cancelled, no call starts from now on; the worker serving it records ` +
          `the calls in flight and closes it (llm-evals cancel ${runId} waits for it again)\n`,
      );
      return 130;
    }
    if (how === 'terminated') {
      io.stdout.write(`${pc.yellow('cancelled')} run ${runId}: no worker closed it, so Temporal ended it\n`);
      return 0;
    }
    // Said of each call as it truly went: a worker that stopped answering lost the replies of its pool.
    const clauses = calls ? waitedClauses(calls) : waitedFor ? [`waited for ${callsIn(waitedFor)}`] : [];
    const waited = clauses.map((clause) => `; ${clause}`).join('');
    io.stdout.write(`${pc.yellow('cancelled')} run ${runId}: no call starts from now on${waited}\n`);
    return 0;
  } finally {
    await link.close();
  }
}
