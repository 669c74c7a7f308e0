import { hostname } from 'node:os';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { createActivities, type CaseDeps, type ScheduleDeps } from '../../activities/index.ts';
import { PoolRegistry } from '../../activities/pool-registry.ts';
import { PACKAGE_ROOT, VERSION } from '../package-root.ts';
import { workerIdentity } from '../core/schedule-spec.ts';
import { workflowBundle } from './bundle.ts';
import { engineTracing } from './engine-tracing.ts';
import type { TemporalLink } from './connect.ts';
import { temporalGate, type TemporalGate } from './gate-client.ts';
import { temporalExperiments } from './experiment-client.ts';
import { previousScheduledRun } from './schedule-runs.ts';
import { processReplyCache } from './reply-cache.ts';
import { dropStackTraceHook } from './stack-trace-hook.ts';
import { buildIdOf, deploymentNameOf, versioningOn, type Build } from './versioning.ts';
import type { TrackerSuite } from '../trackers/track.ts';
import type { Env } from '../trackers/types.ts';

/** The workflows' entry file, bundled by the worker for Temporal's sandbox. */
export const WORKFLOWS_PATH = join(PACKAGE_ROOT, 'workflows', 'index.ts');

/** The task queue a suite's runs and workers meet on; `LLM_EVALS_TASK_QUEUE` overrides it. */
export function taskQueueFor(suite: string, env: NodeJS.ProcessEnv): string {
  return env.LLM_EVALS_TASK_QUEUE ?? `llm-evals:${suite}`;
}

/**
 * The build a worker of this checkout polls as on its suite's queue, and runs started there are pinned to, with Worker
 * Versioning on (unless LLM_EVALS_WORKER_VERSIONING=0): the deployment of the suite's queue, the package's version and
 * the workflow bundle's hash. Undefined when it is off.
 */
export async function buildOf(
  taskQueue: string,
  env: NodeJS.ProcessEnv,
  code?: string,
): Promise<Build | undefined> {
  if (!versioningOn(env)) return undefined;
  return {
    deploymentName: deploymentNameOf(taskQueue),
    // LLM_EVALS_BUILD_ID names the build instead (a release's tag or commit, the same on every machine of a fleet).
    buildId:
      env.LLM_EVALS_BUILD_ID || buildIdOf(VERSION, code ?? (await workflowBundle(WORKFLOWS_PATH)).code),
  };
}

/** A worker serving a suite's runs, and the way to stop it without losing the calls it has in flight. */
export interface SuiteWorker {
  worker: Worker;
  /** The build it polls as, with Worker Versioning on. */
  build?: Build;
  /**
   * The run's gate as this worker's calls reach it: the live view reads the gate's state through it, so that it shares
   * their look rather than query the gate beside them (a server holds one query per workflow while its task runs by
   * default, and refuses the next for ~1 s).
   */
  gate: TemporalGate;
  /** Runs the worker until `until` settles; the pools first report the calls they have running, then it stops. */
  runUntil<T>(until: () => Promise<T>): Promise<T>;
  /** Shuts down a worker that was made but never run (its run did not start); does nothing to one that ran. */
  discard(): Promise<void>;
}

/**
 * Options of a suite worker: `maxActivities` caps the pools (and retries) it runs at once, to share work out;
 * `workflowsInProcess` runs the workflows on this thread rather than on a worker thread of their own.
 */
export interface SuiteWorkerOptions {
  maxActivities?: number;
  /**
   * For the worker of a command that waits for its run (compare, run, resume): no thread to start, no second copy of
   * Temporal's SDK to load, so the run's first task is served ~0.6 s sooner and the command takes ~20 % less CPU and
   * ~40 MB less memory (bench/throughput.ts, and paired whole-process timings of the toy suite). The SDK calls this
   * its debug mode: it also lifts the 5 s bound on one workflow activation, which only a bug of ours in workflows/
   * would reach. A standalone `llm-evals worker` keeps the thread: it starts once and serves for long.
   */
  workflowsInProcess?: boolean;
  /**
   * The project it serves: its identity on Temporal names it (`PID@HOST folder-hash`), so a schedule's page lists only
   * its own project's workers where another project's suite of the same name polls the same queue.
   */
  project?: string;
  /**
   * Polls as this checkout's build (Worker Versioning, unless LLM_EVALS_WORKER_VERSIONING=0): for the suite's shared
   * queue, where workers of several builds meet. A run's own queue (a compare's) has one worker and stays unversioned.
   */
  versioned?: boolean;
}

/** What a worker needs of the suite: its adapter, scorer, providers and cases; its trackers and the env with their
 * keys; and a planner for scheduled fires. */
export type SuiteDeps = Omit<CaseDeps, 'gate'> & { trackers: TrackerSuite; env: Env } & Pick<
    ScheduleDeps,
    'planFire'
  >;

/** Creates a worker serving the suite's runs with its adapter, scorer, providers, cases and trackers. */
export async function createSuiteWorker(
  link: TemporalLink,
  taskQueue: string,
  deps: SuiteDeps,
  options: SuiteWorkerOptions = {},
): Promise<SuiteWorker> {
  const pools = new PoolRegistry();
  const gate = temporalGate(link.client);
  const tracing = await engineTracing(deps.env);
  const bundle = await workflowBundle(WORKFLOWS_PATH);
  const build = options.versioned ? await buildOf(taskQueue, deps.env, bundle.code) : undefined;
  const worker = await Worker.create({
    connection: await link.nativeConnection(),
    namespace: link.namespace,
    taskQueue,
    // The codec runs here, outside the workflow sandbox: the bundle never sees a key nor a ciphertext.
    dataConverter: link.dataConverter,
    ...(options.project ? { identity: workerIdentity(process.pid, hostname(), options.project) } : {}),
    workflowBundle: bundle,
    // Pinned: a run's workflows stay on the build that started them, which never replays a history with other code.
    ...(build
      ? {
          workerDeploymentOptions: {
            useWorkerVersioning: true,
            version: build,
            defaultVersioningBehavior: 'PINNED' as const,
          },
        }
      : {}),
    // A workflow's tasks go to the worker that holds it in cache; when that worker is killed they wait this long before
    // any worker may take them. The SDK's 10 s made a killed worker's experiments stand still for 15-20 s (the chaos
    // bench); a live worker takes its own tasks within milliseconds, so 3 s only costs a replay when it is stuck.
    stickyQueueScheduleToStartTimeout: '3 seconds',
    // Heartbeats reach Temporal each second. The SDK's own pace is 0.8 × an activity's heartbeat timeout, a pool's
    // every 4 s of its 5, so a worker stalled just over a second (a loaded machine) let the pool time out. Temporal
    // tries a timed-out pool again, but not a cancelled one: its experiment failed, and the reply of the call it still
    // had in flight, paid for, was lost (issue #28). A pool now outlasts a stall of about 4 s, for one heartbeat a
    // second per pool, retried case or track.
    maxHeartbeatThrottleInterval: '1 second',
    ...(options.maxActivities ? { maxConcurrentActivityTaskExecutions: options.maxActivities } : {}),
    ...(options.workflowsInProcess ? { debugMode: true } : {}),
    ...(tracing
      ? {
          interceptors: { activity: [() => ({ inbound: tracing.activityInterceptor() })] },
          sinks: tracing.sinks(),
        }
      : {}),
    activities: createActivities({
      ...deps,
      gate,
      experiments: temporalExperiments(link.client),
      pools,
      replies: processReplyCache(link.runs),
      previousRun: (scheduleId) => previousScheduledRun(link.client, scheduleId),
      digest: (runId) => link.runs.digest(runId),
      track: { runs: link.runs, cases: deps.cases, trackers: deps.trackers, env: deps.env },
    }),
  });
  if (options.workflowsInProcess) dropStackTraceHook();
  return {
    worker,
    ...(build ? { build } : {}),
    gate,
    runUntil: (until) =>
      worker.runUntil(async () => {
        try {
          return await until();
        } finally {
          // Workflow tasks are still served here, so the pools' last exchanges reach their experiments.
          await pools.drain();
        }
      }),
    discard: async () => {
      if (worker.getState() === 'INITIALIZED') await worker.runUntil(Promise.resolve());
    },
  };
}
