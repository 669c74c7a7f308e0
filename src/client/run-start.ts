// A run's start: its gate and its run workflow, started together and tagged so that `runs` and `status` find the run
// without a worker.
import type { Client } from '@temporalio/client';
import { newGate } from '../core/coordinator.ts';
import { gateWorkflowId, runWorkflowId, type RunInput } from '../core/run-input.ts';
import type { RunHeader } from '../core/snapshot.ts';
import type { Build } from './versioning.ts';

/** Where, how and by whom a run is started. */
export interface RunStart {
  taskQueue: string;
  input: RunInput;
  header: RunHeader;
  project?: string | undefined;
  /** The llm-evals that starts it, kept in the run's memo. */
  startedBy: string;
  /** With Worker Versioning: the build both workflows (and the experiments, children on the same queue) stay on. */
  pinnedTo?: Build | undefined;
}

/**
 * Starts a run's gate and its run workflow at once, one round trip sooner; a run whose gate did not start could not
 * go on, so when either fails to start the other is ended and the failure thrown.
 */
export async function startRun(client: Client, start: RunStart): Promise<void> {
  const { taskQueue, input, header, project, startedBy, pinnedTo } = start;
  const pinned = pinnedTo ? { versioningOverride: { pinnedTo } } : {};
  const gate = client.workflow.start('runGate', {
    workflowId: gateWorkflowId(input.runId),
    taskQueue,
    ...pinned,
    args: [newGate(input.limits, input.abortAfter, input.inFlight)],
    searchAttributes: { LlmEvalsRunId: [input.runId] },
  });
  const run = client.workflow.start('compareRun', {
    workflowId: runWorkflowId(input.runId),
    taskQueue,
    ...pinned,
    args: [input],
    memo: { header, startedBy },
    searchAttributes: {
      LlmEvalsRunId: [input.runId],
      LlmEvalsSuite: [input.suite],
      LlmEvalsState: ['running'],
      ...(project ? { LlmEvalsProject: [project] } : {}),
    },
  });
  const [gateStarted, runStarted] = await Promise.allSettled([gate, run]);
  if (gateStarted.status === 'fulfilled') {
    if (runStarted.status === 'rejected') {
      await gateStarted.value.terminate('its run did not start').catch(() => undefined);
      throw runStarted.reason;
    }
    return;
  }
  if (runStarted.status === 'fulfilled') {
    await runStarted.value.terminate('its gate did not start').catch(() => undefined);
  }
  throw gateStarted.reason;
}
