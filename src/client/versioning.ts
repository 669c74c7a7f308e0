import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { ConfigError } from '../errors.ts';
import { POLLED_WITHIN_MS } from '../core/cancel-wait.ts';
import { pollersOf, type Poller } from './pollers.ts';

// Worker Versioning (Temporal's Worker Deployments): every worker of a suite's shared queue polls as one build of its
// suite's deployment, and each run is pinned to the build of the llm-evals that started it, so a worker of a newer
// build never replays an old run's history with changed workflow code. On unless LLM_EVALS_WORKER_VERSIONING=0 (see
// README §Fleet upgrades); a compare's run, on a queue of its own, is never versioned.

/** One build of a suite's workers: the deployment (one per suite's task queue) and the build id. */
export interface Build {
  deploymentName: string;
  buildId: string;
}

/** Whether workers and runs use Worker Versioning: LLM_EVALS_WORKER_VERSIONING, `1` (the default) or `0`. */
export function versioningOn(env: NodeJS.ProcessEnv): boolean {
  const value = env.LLM_EVALS_WORKER_VERSIONING ?? '';
  if (value === '' || value === '1') return true;
  if (value === '0') return false;
  throw new ConfigError(undefined, `LLM_EVALS_WORKER_VERSIONING=${value}`, 'expected 1 (on) or 0 (off)');
}

/**
 * The deployment of a suite's task queue (`llm-evals:<suite>`, without a run's `/<run id>`): Temporal refuses `.`
 * and `:` in a deployment's name, and more than ~110 characters on a server whose ids are 255 long, so those become
 * `-` and a long name keeps its first 60 characters and a hash of the whole.
 */
export function deploymentNameOf(suiteQueue: string): string {
  const name = suiteQueue.replace(/[.:]/g, '-').replace(/^_+/, '');
  if (name.length <= 80) return name;
  return `${name.slice(0, 60)}-${createHash('sha256').update(suiteQueue).digest('hex').slice(0, 12)}`;
}

/** A build's id: the package's version and the first 12 hex digits of the SHA-256 of the workflow bundle's code. */
export function buildIdOf(packageVersion: string, bundleCode: string): string {
  return `${packageVersion}+${createHash('sha256').update(bundleCode).digest('hex').slice(0, 12)}`;
}

/** A build as one line: `<deployment> build <build id>`. */
export function describeBuild(build: Build): string {
  return `${build.deploymentName} build ${build.buildId}`;
}

/** Keeps asking `attempt` while Temporal does not know the version yet (its first poll takes a moment to register). */
async function whileUnregistered<T>(attempt: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/**
 * Makes `build` its deployment's current version when the deployment has none, or when no worker of its current build
 * has polled `taskQueue` lately (its workers all gone: the llm-evals this one replaced on a machine); the current
 * version is where runs a schedule starts, and runs started without a pin, go. A current build whose workers still poll
 * keeps it: moving a live fleet is the operator's step (README §Fleet upgrades). Returns the current build id after.
 */
export async function currentUnlessSet(
  client: Client,
  build: Build,
  taskQueue: string,
  timeoutMs = 30_000,
): Promise<string> {
  const namespace = client.options.namespace;
  const current = await currentBuildOf(client, build.deploymentName);
  if (current === build.buildId) return current;
  const live = (buildId: string) =>
    buildPollers(client, taskQueue, { deploymentName: build.deploymentName, buildId }).then(
      (pollers) => pollers.length > 0,
      () => true,
    );
  if (current && (await live(current))) return current;
  await whileUnregistered(
    () =>
      client.workflowService.setWorkerDeploymentCurrentVersion({
        namespace,
        deploymentName: build.deploymentName,
        buildId: build.buildId,
        identity: 'llm-evals worker',
      }),
    timeoutMs,
  );
  return build.buildId;
}

/** The build id of a deployment's current version, or undefined when it has none (or does not exist yet). */
export async function currentBuildOf(client: Client, deploymentName: string): Promise<string | undefined> {
  try {
    const answer = await client.workflowService.describeWorkerDeployment({
      namespace: client.options.namespace,
      deploymentName,
    });
    return answer.workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId ?? undefined;
  } catch {
    return undefined;
  }
}

/** The build a run's workflow is pinned to, from its description; undefined for a run started without versioning. */
export function pinnedBuildOf(info: {
  versioningInfo?: {
    deploymentVersion?: { deploymentName?: string | null; buildId?: string | null } | null;
    versioningOverride?: {
      pinned?: { version?: { deploymentName?: string | null; buildId?: string | null } | null } | null;
    } | null;
  } | null;
}): Build | undefined {
  const v = info.versioningInfo;
  const version = v?.versioningOverride?.pinned?.version ?? v?.deploymentVersion;
  if (!version?.deploymentName || !version.buildId) return undefined;
  return { deploymentName: version.deploymentName, buildId: version.buildId };
}

/**
 * The workers of `build` that polled `taskQueue` (workflows or activities) within POLLED_WITHIN_MS, as Temporal saw
 * them: a worker stopped less than that long ago still counts (a live one's long poll can be a minute old).
 */
export async function buildPollers(client: Client, taskQueue: string, build: Build): Promise<Poller[]> {
  const now = Date.now();
  return (await pollersOf(client, taskQueue)).filter(
    (p) =>
      p.build?.deploymentName === build.deploymentName &&
      p.build.buildId === build.buildId &&
      (!p.lastSeen || now - p.lastSeen.getTime() <= POLLED_WITHIN_MS),
  );
}

/**
 * The runs still running that are pinned to `build` (Temporal's TemporalWorkerDeploymentVersion search attribute):
 * the ones a worker of this build may serve besides new ones. Undefined when the server cannot say.
 */
export async function runsPinnedTo(client: Client, build: Build, limit = 20): Promise<string[] | undefined> {
  const version = `${build.deploymentName}:${build.buildId}`;
  const query =
    `WorkflowType = 'compareRun' AND ExecutionStatus = 'Running' AND ` +
    `TemporalWorkerDeploymentVersion = '${version.replace(/'/g, "\\'")}'`;
  try {
    const runs: string[] = [];
    for await (const workflow of client.workflow.list({ query, pageSize: limit })) {
      const runId = workflow.searchAttributes?.LlmEvalsRunId?.[0];
      runs.push(typeof runId === 'string' ? runId : workflow.workflowId);
      if (runs.length >= limit) break;
    }
    return runs;
  } catch {
    return undefined;
  }
}

/**
 * Whether a worker of `build` has polled `taskQueue` for workflows, so that Temporal takes a run pinned to it there
 * (it refuses a pin to a version the queue does not have yet).
 */
export async function buildOnQueue(client: Client, build: Build, taskQueue: string): Promise<boolean> {
  try {
    const answer = await client.workflowService.describeWorkerDeploymentVersion({
      namespace: client.options.namespace,
      deploymentVersion: build,
    });
    // TASK_QUEUE_TYPE_WORKFLOW = 1.
    return (answer.workerDeploymentVersionInfo?.taskQueueInfos ?? []).some(
      (q) => q.name === taskQueue && [1, 'TASK_QUEUE_TYPE_WORKFLOW'].includes(q.type as number | string),
    );
  } catch {
    return false;
  }
}
