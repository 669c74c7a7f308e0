import type { Client, WorkflowHandle } from '@temporalio/client';
import type { CaseResult } from '../core/results.ts';
import { runWorkflowId, sliceWorkflowId, type RunInput } from '../core/run-input.ts';
import type { RunProgress, SliceProgress } from '../../workflows/messages.ts';
import { runProgressQuery, sliceProgressQuery } from '../../workflows/messages.ts';
import type { RunResult, SliceResult } from '../../workflows/index.ts';

/** A new run id: sortable by time, unique enough to name workflows. */
export function newRunId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

/** Starts a run's workflow, tagged with search attributes so `runs` and `status` find it without a worker. */
export async function startRun(client: Client, taskQueue: string, input: RunInput): Promise<WorkflowHandle> {
  return client.workflow.start('compareRun', {
    workflowId: runWorkflowId(input.runId),
    taskQueue,
    args: [input],
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
