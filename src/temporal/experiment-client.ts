import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { ExperimentClient } from '../../activities/index.ts';
import { exchangeUpdate } from '../../workflows/messages.ts';
import { again } from './again.ts';

/**
 * The way a pool reaches its experiment workflow: an update per exchange, tried again while the server or the
 * workflow is briefly unavailable (the results it carries must not be lost). An experiment that is gone — closed,
 * cancelled — ends the pool.
 */
export function temporalExperiments(client: Client): ExperimentClient {
  return {
    async exchange(workflowId, request) {
      try {
        return await again(
          () => client.workflow.getHandle(workflowId).executeUpdate(exchangeUpdate, { args: [request] }),
          {
            tries: Number.POSITIVE_INFINITY,
            final: (error) =>
              error instanceof WorkflowNotFoundError || error instanceof WorkflowUpdateFailedError,
          },
        );
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return { cases: [], end: 'stopped' };
        throw error;
      }
    },
  };
}
