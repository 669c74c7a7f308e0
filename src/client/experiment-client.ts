import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import type { ExperimentClient } from '../../activities/index.ts';
import { exchangeUpdate, retryUpdate } from '../../workflows/messages.ts';
import { again } from './again.ts';

/**
 * The way a pool, or a retried case, reaches its experiment workflow: an update per exchange or report, tried again
 * while the server or the workflow is briefly unavailable (the results it carries must not be lost). An experiment
 * that is gone — closed, cancelled — ends the pool, and wants no retried case.
 */
export function temporalExperiments(client: Client): ExperimentClient {
  /** Sends `arg` to the experiment `workflowId` with the update `definition`; `gone` answers for one that has closed. */
  async function update<A, R>(
    workflowId: string,
    definition: UpdateDefinition<R, [A]>,
    arg: A,
    gone: R,
  ): Promise<R> {
    try {
      return await again(
        () => client.workflow.getHandle(workflowId).executeUpdate(definition, { args: [arg] }),
        {
          tries: Number.POSITIVE_INFINITY,
          final: (error) =>
            error instanceof WorkflowNotFoundError || error instanceof WorkflowUpdateFailedError,
        },
      );
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return gone;
      throw error;
    }
  }
  return {
    exchange: (workflowId, request) =>
      update(workflowId, exchangeUpdate, request, { cases: [], end: 'stopped' }),
    retry: (workflowId, report) => update(workflowId, retryUpdate, report, false),
  };
}
