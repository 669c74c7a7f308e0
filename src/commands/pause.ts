import { createInterface } from 'node:readline/promises';
import pc from 'picocolors';
import { describeFailures, type GateState } from '../core/coordinator.ts';
import { gateWorkflowId, type RunInput } from '../core/run-input.ts';
import type { TemporalLink } from '../temporal/connect.ts';
import { answerPauseSignal, gateQuery } from '../../workflows/messages.ts';
import type { Io } from './io.ts';

/** What to do when a run pauses after a streak of failures (S11): ask, go on (`--yes`), or stop (no one to ask). */
export type PausePolicy = 'ask' | 'yes' | 'stop';

/** The policy for this process: `--yes` goes on; a terminal asks; anything else stops. */
export function pausePolicy(yes: boolean | undefined, io: Io): PausePolicy {
  return yes ? 'yes' : io.interactive ? 'ask' : 'stop';
}

/** The gate's state, when a worker answers the query. */
export async function readGate(link: TemporalLink, runId: string): Promise<GateState | undefined> {
  try {
    return await link.client.connection.withDeadline(Date.now() + 2000, () =>
      link.client.workflow.getHandle(gateWorkflowId(runId)).query(gateQuery),
    );
  } catch {
    return undefined;
  }
}

/** The pause message: how many failed in a row, the messages, and which contenders, datasets and cases. */
export function pauseMessage(gate: GateState, input: RunInput): string {
  const all = { contenders: input.contenders.length, datasets: Object.keys(input.datasets).length };
  const f = describeFailures(gate.recent, all);
  const list = (v: string[] | string) => (typeof v === 'string' ? v : v.join(', '));
  return [
    pc.yellow(`paused: ${gate.streak} calls failed in a row; nothing new starts.`),
    ...f.messages.map((m) => `  error: ${m}`),
    `  models: ${list(f.contenders)}`,
    `  datasets: ${list(f.datasets)}`,
    `  cases: ${f.cases.slice(0, 10).join(', ')}${f.cases.length > 10 ? ', …' : ''}`,
  ].join('\n');
}

/** Shows the pause and answers it by the policy; returns whether the run goes on. */
export async function answerPause(
  link: TemporalLink,
  runId: string,
  gate: GateState,
  input: RunInput,
  policy: PausePolicy,
  io: Io,
): Promise<boolean> {
  io.stderr.write(pauseMessage(gate, input) + '\n');
  let goOn = policy === 'yes';
  if (policy === 'ask') {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    goOn = /^y(es)?$/i.test((await rl.question('Keep running? [y/N] ')).trim());
    rl.close();
  } else {
    io.stderr.write(policy === 'yes' ? 'going on (--yes)\n' : 'stopping: no terminal to ask and no --yes\n');
  }
  await link.client.workflow.getHandle(gateWorkflowId(runId)).signal(answerPauseSignal, goOn);
  return goOn;
}
