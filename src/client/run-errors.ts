import { WorkflowNotFoundError } from '@temporalio/client';
import { ConfigError } from '../errors.ts';

/** A run id Temporal does not know is bad input (exit 2), said plainly; any other failure goes on as it was. */
export function noSuchRun(runId: string, error: unknown): never {
  if (error instanceof WorkflowNotFoundError) {
    throw new ConfigError(
      undefined,
      'run',
      `no run ${JSON.stringify(runId)} on this Temporal (see llm-evals runs)`,
    );
  }
  throw error;
}
