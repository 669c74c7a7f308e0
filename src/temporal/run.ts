import { WorkflowNotFoundError, type Client, type WorkflowHandle } from '@temporalio/client';
import type { CaseResult } from '../core/results.ts';
import { newGate } from '../core/coordinator.ts';
import type { ExperimentProgress, RunProgress } from '../core/progress.ts';
import { experimentWorkflowId, gateWorkflowId, runWorkflowId, type RunInput } from '../core/run-input.ts';
import { experimentProgressQuery, runProgressQuery } from '../../workflows/messages.ts';
import { readExperimentResults } from './experiment-history.ts';
import type { RunHeader } from './run-data.ts';

/** The timestamp used in run ids and in log and snapshot file names. */
export function stamp(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** A new run id: sortable by time, unique enough to name workflows. */
export function newRunId(now: Date = new Date()): string {
  return `${stamp(now)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** Starts a run's workflow, tagged with search attributes so `runs` and `status` find it without a worker. */
export async function startRun(
  client: Client,
  taskQueue: string,
  input: RunInput,
  header: RunHeader,
): Promise<WorkflowHandle> {
  await client.workflow.start('runGate', {
    workflowId: gateWorkflowId(input.runId),
    taskQueue,
    args: [newGate(input.limits, input.abortAfter)],
    searchAttributes: { LlmEvalsRunId: [input.runId] },
  });
  return client.workflow.start('compareRun', {
    workflowId: runWorkflowId(input.runId),
    taskQueue,
    args: [input],
    memo: { header },
    searchAttributes: {
      LlmEvalsRunId: [input.runId],
      LlmEvalsSuite: [input.suite],
      LlmEvalsState: ['running'],
    },
  });
}

/** The run's progress, with each running experiment's own count (asked of it) in place of its zeros. */
export async function queryProgress(client: Client, runId: string): Promise<RunProgress> {
  const progress = await client.workflow.getHandle(runWorkflowId(runId)).query(runProgressQuery);
  await Promise.all(
    progress.experiments.map(async (e) => {
      if (e.state !== 'running') return;
      try {
        const own: ExperimentProgress = await client.workflow
          .getHandle(experimentWorkflowId(runId, e.id))
          .query(experimentProgressQuery);
        e.done = own.done;
        e.errors = own.errors;
      } catch {
        // The experiment may have just closed; the next poll counts it through the run.
      }
    }),
  );
  return progress;
}

/** Every case result a run's experiments hold so far, read from their histories (no worker needed). */
export async function fetchResults(
  client: Client,
  runId: string,
  experimentIds: readonly string[],
): Promise<CaseResult[]> {
  const all: CaseResult[] = [];
  const batch = 8;
  for (let i = 0; i < experimentIds.length; i += batch) {
    const parts = await Promise.all(
      experimentIds.slice(i, i + batch).map((id) =>
        readExperimentResults(client, experimentWorkflowId(runId, id)).catch((error: unknown) => {
          // An experiment never started (an aborted run) has no workflow and no results.
          if (error instanceof WorkflowNotFoundError) return [];
          throw error;
        }),
      ),
    );
    all.push(...parts.flat());
  }
  return all;
}
