import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { ConfigError } from '../errors.ts';
import { defaultPayloadConverter, fromPayloadsAtIndex } from '@temporalio/common';
import type { Json, Metric } from '../api/types.ts';
import type { PlanRefusal } from '../core/plan.ts';
import { runWorkflowId, type RunInput } from '../core/run-input.ts';

/** What a run records beside its input, as memo, so `report` and `status` can rebuild its snapshot from any shell. */
export interface RunHeader {
  createdAt: string;
  suite: { name: string; description?: string; project: string };
  options: Record<string, Json>;
  settings: { parallelism: number; concurrency: number };
  metrics: Metric[];
  refused: PlanRefusal[];
  weights?: Record<string, number>;
}

/** A run as Temporal holds it: its input, header and state. */
export interface RunRecord {
  input: RunInput;
  header: RunHeader;
  status: string;
  closed: boolean;
  /** The task queue its workers poll: the suite's, or one of its own for a `compare`'s in-process worker. */
  taskQueue: string;
}

/** Reads a run's input (from the first event of its first execution) and header (memo), without a worker. */
export async function readRun(client: Client, runId: string): Promise<RunRecord> {
  const handle = client.workflow.getHandle(runWorkflowId(runId));
  const description = await handle.describe().catch((error: unknown) => {
    if (error instanceof WorkflowNotFoundError) {
      throw new ConfigError(
        undefined,
        'run',
        `no run ${JSON.stringify(runId)} on this Temporal (see llm-evals runs)`,
      );
    }
    throw error;
  });
  const first = await client.workflowService.getWorkflowExecutionHistory({
    namespace: client.options.namespace,
    execution: {
      workflowId: handle.workflowId,
      runId: description.raw.workflowExecutionInfo?.firstRunId ?? undefined,
    },
    maximumPageSize: 1,
  });
  const started = first.history?.events?.[0]?.workflowExecutionStartedEventAttributes;
  const input = fromPayloadsAtIndex<RunInput>(defaultPayloadConverter, 0, started?.input?.payloads);
  const header = description.memo?.header as RunHeader | undefined;
  if (!input || !header) throw new Error(`workflow ${handle.workflowId} is not an llm-evals run`);
  const status = description.status.name;
  return { input, header, status, closed: status !== 'RUNNING', taskQueue: description.taskQueue };
}
