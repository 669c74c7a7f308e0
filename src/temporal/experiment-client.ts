import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { ExperimentClient } from '../../activities/index.ts';
import { exchangeUpdate, retryUpdate } from '../../workflows/messages.ts';
import { again } from './again.ts';

/**
 * The way a pool, or a retried case, reaches its experiment workflow: an update per exchange or report, tried again
 * while the server or the workflow is briefly unavailable (the results it carries must not be lost). An experiment
 * that is gone — closed, cancelled — ends the pool, and wants no retried case.
 */
export function temporalExperiments(client: Client): ExperimentClient {
  const until = {
    tries: Number.POSITIVE_INFINITY,
    final: (error: unknown) =>
      error instanceof WorkflowNotFoundError || error instanceof WorkflowUpdateFailedError,
  };
  return {
    async exchange(workflowId, request) {
      try {
        return await again(
          () => client.workflow.getHandle(workflowId).executeUpdate(exchangeUpdate, { args: [request] }),
          until,
        );
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return { cases: [], end: 'stopped' };
        throw error;
      }
    },
    async retry(workflowId, report) {
      try {
        return await again(
          () => client.workflow.getHandle(workflowId).executeUpdate(retryUpdate, { args: [report] }),
          until,
        );
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      }
    },
  };
}
