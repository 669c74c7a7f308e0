import type { Client } from '@temporalio/client';
import { protoMs } from './namespace.ts';

/** A worker seen polling a task queue, and when it last did. */
export interface Poller {
  identity: string;
  lastSeen?: Date;
  /** The build it polls as, when it uses Worker Versioning (src/client/versioning.ts). */
  build?: { deploymentName: string; buildId: string };
}

/**
 * When each worker last polled a task queue (epoch ms), as Temporal saw them; undefined when Temporal did not say (the
 * server did not answer the question).
 */
export function pollTimesOf(client: Client, taskQueue: string): Promise<number[] | undefined> {
  return pollersOf(client, taskQueue).then(
    (pollers) => pollers.flatMap(({ lastSeen }) => (lastSeen ? [lastSeen.getTime()] : [])),
    () => undefined,
  );
}

/** The workers that polled a task queue (for workflows or activities) lately, as Temporal saw them. */
export async function pollersOf(client: Client, taskQueue: string): Promise<Poller[]> {
  const seen = new Map<string, Poller>();
  // TASK_QUEUE_TYPE_WORKFLOW = 1, TASK_QUEUE_TYPE_ACTIVITY = 2.
  for (const taskQueueType of [1, 2]) {
    const answer = await client.workflowService.describeTaskQueue({
      namespace: client.options.namespace,
      taskQueue: { name: taskQueue },
      taskQueueType,
    });
    for (const p of answer.pollers ?? []) {
      const ms = protoMs(p.lastAccessTime);
      const lastSeen = ms === undefined ? undefined : new Date(ms);
      const identity = p.identity ?? '?';
      const known = seen.get(identity);
      const { deploymentName, buildId } = p.deploymentOptions ?? {};
      const build = deploymentName && buildId ? { build: { deploymentName, buildId } } : {};
      if (!known || (lastSeen && (!known.lastSeen || lastSeen > known.lastSeen)))
        seen.set(identity, { identity, ...(lastSeen ? { lastSeen } : {}), ...build });
    }
  }
  return [...seen.values()];
}
