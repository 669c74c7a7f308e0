import type { Io } from '../cli/io.ts';
import { projectOf } from '../session/open-suite.ts';
import type { StatusFlags } from '../cli/options.ts';
import { ConfigError } from '../errors.ts';
import { linkForCommand } from '../session/link.ts';
import { suitePlaceOf } from './request.ts';

/**
 * `continue RUN` / `stop RUN`: answers a paused run from any shell; stopping reports what finished. A run that
 * is not paused is refused with the state it is in (exit 2); one whose gate no worker answers now is sent the answer,
 * which its gate reads once a worker serves it.
 */
export async function answerCommand(
  runId: string,
  goOn: boolean,
  flags: StatusFlags,
  io: Io,
): Promise<number> {
  const command = goOn ? 'continue' : 'stop';
  const link = await linkForCommand(projectOf(suitePlaceOf(flags), io), io, command);
  try {
    const { state, gateKnown } = await link.runs.stateOf(runId);
    if (state !== 'paused' && gateKnown) {
      const next =
        state === 'running'
          ? `; to end it, llm-evals cancel ${runId}`
          : `; llm-evals report ${runId} shows what finished`;
      throw new ConfigError(
        undefined,
        'run',
        `run ${JSON.stringify(runId)} is ${state}, not paused: ${command} answers only a run paused after a ` +
          `streak of failures${next}`,
      );
    }
    await link.runs.answerPause(runId, goOn);
    const waiting = gateKnown ? '' : ' (no worker serves it now: the answer is read once one does)';
    io.stdout.write(`${goOn ? 'going on with' : 'stopping'} run ${runId}${waiting}\n`);
    return 0;
  } finally {
    await link.close();
  }
}
