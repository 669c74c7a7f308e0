import type { Client, WorkflowHandle } from '@temporalio/client';
import type { CaseResult } from '../core/results.ts';
import { newGate } from '../core/coordinator.ts';
import { gateWorkflowId, runWorkflowId, sliceWorkflowId, type RunInput } from '../core/run-input.ts';
import type { RunProgress, SliceProgress } from '../../workflows/messages.ts';
import { runProgressQuery, sliceProgressQuery } from '../../workflows/messages.ts';
import type { RunResult, SliceResult } from '../../workflows/index.ts';
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

/** The run's progress, with each running slice's own count added in. */
export async function queryProgress(client: Client, runId: string): Promise<RunProgress> {
  const progress = await client.workflow.getHandle(runWorkflowId(runId)).query(runProgressQuery);
  await Promise.all(
    progress.experiments.map(async (e) => {
      if (!e.runningSlice) return;
      try {
        const slice: SliceProgress = await client.workflow
          .getHandle(e.runningSlice)
          .query(sliceProgressQuery);
        e.done += slice.done;
        e.errors += slice.errors;
      } catch {
        // The slice may have just closed; the next poll counts it through the run.
      }
    }),
  );
  return progress;
}

/** Every case result of a finished run, read from its slices' results (no worker needed). */
export async function fetchResults(client: Client, result: RunResult): Promise<CaseResult[]> {
  const ids = result.experiments.flatMap((e) =>
    Array.from({ length: e.slices }, (_, i) => sliceWorkflowId(result.runId, e.id, i)),
  );
  return fetchSlices(client, ids);
}

/** The case results of a run still going: those of the slices that have closed (found through visibility). */
export async function fetchClosedSliceResults(client: Client, runId: string): Promise<CaseResult[]> {
  const ids: string[] = [];
  const query = `LlmEvalsRunId = '${runId}' AND WorkflowType = 'experimentSlice' AND ExecutionStatus = 'Completed'`;
  for await (const execution of client.workflow.list({ query })) ids.push(execution.workflowId);
  return fetchSlices(client, ids.sort());
}

async function fetchSlices(client: Client, ids: readonly string[]): Promise<CaseResult[]> {
  const slices: SliceResult[] = [];
  const batch = 16;
  for (let i = 0; i < ids.length; i += batch) {
    slices.push(
      ...(await Promise.all(
        ids.slice(i, i + batch).map((id) => client.workflow.getHandle(id).result() as Promise<SliceResult>),
      )),
    );
  }
  return slices.flatMap((s) => s.results);
}
