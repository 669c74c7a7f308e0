import { fileURLToPath } from 'node:url';
import { Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../activities/index.ts';
import { workflowBundle } from './bundle.ts';
import type { TemporalLink } from './connect.ts';
import { temporalGate } from './gate-client.ts';

/** The workflows' entry file, bundled by the worker for Temporal's sandbox. */
export const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

/** The task queue a suite's runs and workers meet on; `LLM_EVALS_TASK_QUEUE` overrides it. */
export function taskQueueFor(suite: string, env: NodeJS.ProcessEnv): string {
  return env.LLM_EVALS_TASK_QUEUE ?? `llm-evals:${suite}`;
}

/** Creates a worker serving the suite's runs with its adapter, scorer, providers and cases. */
export async function createSuiteWorker(
  link: TemporalLink,
  taskQueue: string,
  deps: Omit<ActivityDeps, 'gate'>,
): Promise<Worker> {
  return Worker.create({
    connection: await link.nativeConnection(),
    namespace: link.namespace,
    taskQueue,
    workflowBundle: await workflowBundle(WORKFLOWS_PATH),
    activities: createActivities({ ...deps, gate: temporalGate(link.client) }),
  });
}
