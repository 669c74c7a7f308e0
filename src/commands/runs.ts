import pc from 'picocolors';
import { gateWorkflowId, runWorkflowId } from '../core/run-input.ts';
import { renderTable } from '../report/table.ts';
import { answerPauseSignal } from '../../workflows/messages.ts';
import { linkForCommand } from './execute-run.ts';
import type { Io } from './io.ts';
import type { StatusFlags } from './options.ts';
import { projectOf } from './open-suite.ts';

const first = (value: unknown): string =>
  Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';

/** `runs` (D4): recent runs, found through Temporal's visibility and search attributes; no worker needed. */
export async function runsCommand(flags: StatusFlags & { limit?: number }, io: Io): Promise<number> {
  const link = await linkForCommand(projectOf(flags, io), io, 'runs');
  try {
    const rows: string[][] = [];
    const query = `WorkflowType = 'compareRun' AND ExecutionStatus != 'ContinuedAsNew'`;
    for await (const run of link.client.workflow.list({ query })) {
      rows.push([
        first(run.searchAttributes?.LlmEvalsRunId),
        first(run.searchAttributes?.LlmEvalsSuite),
        run.status.name.toLowerCase(),
        run.startTime.toISOString().replace('T', ' ').slice(0, 19),
        run.closeTime ? run.closeTime.toISOString().replace('T', ' ').slice(0, 19) : '',
      ]);
      if (rows.length >= (flags.limit ?? 20)) break;
    }
    if (flags.json) {
      io.stdout.write(
        JSON.stringify(
          rows.map(([runId, suite, state, started, closed]) => ({ runId, suite, state, started, closed })),
          null,
          2,
        ) + '\n',
      );
    } else if (rows.length === 0) {
      io.stdout.write('no runs yet\n');
    } else {
      io.stdout.write(
        renderTable(
          ['run', 'suite', 'state', 'started (UTC)', 'closed (UTC)'].map((header) => ({
            header,
            key: header === 'run',
          })),
          rows,
          { width: io.columns },
        ) + '\n',
      );
    }
    return 0;
  } finally {
    await link.close();
  }
}

/** `cancel RUN` (D4): cancels the run's workflow and with it every slice still running. */
export async function cancelCommand(runId: string, flags: StatusFlags, io: Io): Promise<number> {
  const link = await linkForCommand(projectOf(flags, io), io, 'cancel');
  try {
    await link.client.workflow.getHandle(runWorkflowId(runId)).cancel();
    await link.client.workflow.getHandle(gateWorkflowId(runId)).cancel();
    io.stdout.write(`${pc.yellow('cancelled')} run ${runId}\n`);
    return 0;
  } finally {
    await link.close();
  }
}

/** `continue RUN` / `stop RUN`: answers a paused run from any shell (S11); stopping reports what finished. */
export async function answerCommand(
  runId: string,
  goOn: boolean,
  flags: StatusFlags,
  io: Io,
): Promise<number> {
  const link = await linkForCommand(projectOf(flags, io), io, goOn ? 'continue' : 'stop');
  try {
    await link.client.workflow.getHandle(gateWorkflowId(runId)).signal(answerPauseSignal, goOn);
    io.stdout.write(`${goOn ? 'going on with' : 'stopping'} run ${runId}\n`);
    return 0;
  } finally {
    await link.close();
  }
}
