import { createInterface } from 'node:readline/promises';
import type { GateState } from '../core/coordinator.ts';
import type { RunInput } from '../core/run-input.ts';
import { pauseMessage } from '../report/pause-message.ts';
import type { Runs } from '../client/runs.ts';
import type { Io } from '../cli/io.ts';

/** What to do when a run pauses after a streak of failures: ask, go on (`--yes`), or stop (no one to ask). */
export type PausePolicy = 'ask' | 'yes' | 'stop';

/** The policy for this process: `--yes` goes on; a terminal asks; anything else stops. */
export function pausePolicy(yes: boolean | undefined, io: Io): PausePolicy {
  return yes ? 'yes' : io.interactive ? 'ask' : 'stop';
}

/** Shows the pause and answers it by the policy; returns whether the run goes on. */
export async function answerPause(
  runs: Runs,
  runId: string,
  gate: GateState,
  input: RunInput,
  policy: PausePolicy,
  io: Io,
  stop?: AbortSignal,
): Promise<boolean> {
  io.stderr.write(pauseMessage(gate, input) + '\n');
  let goOn = policy === 'yes';
  if (policy === 'ask') {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    // In a terminal readline takes Ctrl-C as a key, and without a listener only pauses its input: the command went
    // on for minutes. It is the command's Ctrl-C, as anywhere else: the same signal, which aborts `stop`.
    rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
    try {
      const answer = await rl.question('Keep running? [y/N] ', stop ? { signal: stop } : {});
      goOn = /^y(es)?$/i.test(answer.trim());
    } catch (error) {
      // Stopped while asking: no answer, so the run stays paused for `resume` to ask again.
      if (stop?.aborted) {
        io.stderr.write('\n');
        return false;
      }
      throw error;
    } finally {
      rl.close();
    }
  } else {
    io.stderr.write(policy === 'yes' ? 'going on (--yes)\n' : 'stopping: no terminal to ask and no --yes\n');
  }
  await runs.answerPause(runId, goOn);
  return goOn;
}
