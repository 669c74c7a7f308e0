// A run's gate (workflows/run-gate.ts) from the client's side: its state asked or read, the answer to a pause, its
// end, and the wait for it to close after its run completed.
import type { Client } from '@temporalio/client';
import type { GateState } from '../core/coordinator.ts';
import { gateWorkflowId } from '../core/run-input.ts';
import { answerPauseSignal, gateQuery } from '../../workflows/messages.ts';
import { noSuchRun } from './run-errors.ts';

/** How long a command's worker goes on serving a completed run's gate, at most, for it to close. */
const GATE_CLOSE_WAIT_MS = 10_000;

/**
 * Waits, at most `timeoutMs`, for the gate of a run that completed to close. A completed run has signalled its gate
 * to finish, but the gate's last workflow task may still be on its way to the worker, and a worker that stops
 * first drops it (the SDK does not drain its sticky queue): the gate would stay open on a queue nobody polls, its
 * final state and its trace span lost. The worker of a command serves until this resolves.
 */
export async function gateClosed(
  client: Client,
  runId: string,
  timeoutMs = GATE_CLOSE_WAIT_MS,
): Promise<void> {
  await client.connection
    .withDeadline(Date.now() + timeoutMs, () => client.workflow.getHandle(gateWorkflowId(runId)).result())
    .catch(() => undefined);
}

/** The state a closed run's gate ended with (its result, no worker needed); `undefined` when it did not complete. */
export async function finalGate(client: Client, runId: string): Promise<GateState | undefined> {
  try {
    const handle = client.workflow.getHandle(gateWorkflowId(runId));
    const { status } = await handle.describe();
    return status.name === 'COMPLETED' ? ((await handle.result()) as GateState) : undefined;
  } catch {
    return undefined;
  }
}

/** The gate's state, when a worker answers the query within `timeoutMs`. */
export async function gateNow(
  client: Client,
  runId: string,
  timeoutMs = 2000,
): Promise<GateState | undefined> {
  try {
    return await client.connection.withDeadline(Date.now() + timeoutMs, () =>
      client.workflow.getHandle(gateWorkflowId(runId)).query(gateQuery),
    );
  } catch {
    return undefined;
  }
}

/** Answers a run paused after a streak of failures: true goes on, false stops it. */
export async function answerPause(client: Client, runId: string, goOn: boolean): Promise<void> {
  await client.workflow
    .getHandle(gateWorkflowId(runId))
    .signal(answerPauseSignal, goOn)
    .catch((error: unknown) => noSuchRun(runId, error));
}

/** Ends the gate of a cancelled run, which has nothing to clean up; one already closed is left as it is. */
export async function endGate(client: Client, runId: string): Promise<void> {
  await client.workflow
    .getHandle(gateWorkflowId(runId))
    .terminate('its run was cancelled')
    .catch(() => undefined);
}
