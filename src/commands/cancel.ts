import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { projectOf } from '../session/open-suite.ts';
import type { StatusFlags } from '../cli/options.ts';
import { linkForCommand } from '../session/link.ts';
import { callsInFlight as callsIn, closedWords, waitedClauses } from '../core/cancel-wait.ts';
import type { BatchCancelWords } from '../core/batch-cancel.ts';
import { cancelLeftBatches, suiteOfCommand } from '../session/cancel-batches.ts';
import { suitePlaceOf } from './request.ts';

/** `; clause` for each clause, appended to cancel's line about the run. */
const joined = (clauses: readonly string[]) => clauses.map((clause) => `; ${clause}`).join('');

/** Writes a line for each batch left running at its provider; exit 1 when there is one (it is paid for), else 0. */
function sayLeft({ problems }: BatchCancelWords, io: Io): number {
  for (const problem of problems) io.stderr.write(`${pc.red('✗')} ${problem}\n`);
  return problems.length ? 1 : 0;
}

/**
 * `cancel RUN`: cancels the run and every experiment still running, and returns once no call can start: a
 * worker closed it, or, with none serving it, Temporal ended it. While a worker serves it, the calls it has in flight
 * are waited for, however long they take, so that their replies, paid for, are recorded (those of a worker that
 * stopped answering are lost, and cancel says so); Ctrl-C stops waiting and
 * leaves the run cancelled for that worker to close (exit 130). A run that already ended is left as it is, and the
 * command says how it ended (exit 0: nothing is left to cancel).
 *
 * A `--batch` run's experiments cancel their provider's batches as they close, on a worker. Once the run has closed,
 * the batches its histories show still waited on (Temporal ended the run, or a worker could not reach the provider)
 * are cancelled from this process, with this environment's keys (cancelLeftBatches); one it cannot cancel is named
 * with what to do, and the exit is 1: it still runs, and is paid for.
 */
export async function cancelCommand(runId: string, flags: StatusFlags, io: Io): Promise<number> {
  const link = await linkForCommand(projectOf(suitePlaceOf(flags), io), io, 'cancel');
  try {
    const { state } = await link.runs.stateOf(runId);
    if (state !== 'running' && state !== 'paused') {
      // A cancel that stopped waiting left the gate to the one that sees the run closed.
      if (state === 'cancelled') await link.runs.endGate(runId);
      const left = await cancelLeftBatches(link, runId, suiteOfCommand(suitePlaceOf(flags), io), io.env);
      const what = left.clauses.length ? left.clauses.join('; ') : 'nothing to cancel';
      io.stdout.write(`run ${runId} is already ${pc.yellow(state)}: ${what}\n`);
      return sayLeft(left, io);
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
    const left = await cancelLeftBatches(link, runId, suiteOfCommand(suitePlaceOf(flags), io), io.env);
    if (how === 'terminated') {
      io.stdout.write(`${pc.yellow('cancelled')} run ${runId}: ${closedWords(how)}${joined(left.clauses)}\n`);
      return sayLeft(left, io);
    }
    // Said of each call as it truly went: a worker that stopped answering lost the replies of its pool.
    const clauses = calls ? waitedClauses(calls) : waitedFor ? [`waited for ${callsIn(waitedFor)}`] : [];
    io.stdout.write(
      `${pc.yellow('cancelled')} run ${runId}: ${closedWords(how)}${joined([...clauses, ...left.clauses])}\n`,
    );
    return sayLeft(left, io);
  } finally {
    await link.close();
  }
}
