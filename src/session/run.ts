import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { RunRequest } from '../core/request.ts';
import { sumEstimates, type Estimate } from '../core/estimate.ts';
import { inputTooLarge, plannedCases, toRunInput, type RunInput } from '../core/run-input.ts';
import { ConfigError } from '../errors.ts';
import { plansDir, PlanStore } from '../cache/plans.ts';
import type { RunHeader, Snapshot } from '../core/snapshot.ts';
import { Interrupted } from '../errors.ts';
import { saveRunSnapshot } from '../output/save.ts';
import type { TemporalLink } from '../client/connect.ts';
import { buildOf, taskQueueFor } from '../client/worker.ts';
import type { Build } from '../client/versioning.ts';
import { collectSnapshot } from './collect.ts';
import { attachAgreement } from './labels.ts';
import { estimateRun } from './estimate-run.ts';
import { linkForCommand, runPage } from './link.ts';
import { pausePolicy } from './pause.ts';
import type { RunBegun } from './begin-run.ts';
import type { PlannedRun } from './plan-run.ts';
import { newRunId } from './run-id.ts';
import { mark } from '../timing.ts';
import { resumeHint, serveRun, suiteWorker } from './serve.ts';
import type { SuiteWorker } from '../client/worker.ts';
import { traceCommand } from '../client/engine-tracing.ts';
import type { Tracking } from '../core/tracking.ts';

/** A planned run made ready to start: its id, its workflow input and the header recorded beside it. */
export interface RunStart {
  runId: string;
  input: RunInput;
  header: RunHeader;
}

/**
 * Names a planned run and derives what its workflows receive and record; keeps its cases in the plan store, where its
 * workers read them.
 */
export function prepareStart(
  { suite, plan }: PlannedRun,
  tracking: Tracking,
  runId: string = newRunId(),
  estimate?: Estimate,
  plans = new PlanStore(plansDir()),
): RunStart {
  const header: RunHeader = {
    createdAt: new Date().toISOString(),
    suite: {
      name: suite.name,
      ...(suite.description ? { description: suite.description } : {}),
      project: suite.projectDir,
    },
    options: plan.options,
    settings: plan.settings,
    metrics: suite.scorer.metrics(),
    refused: plan.refused,
    ...(plan.weights ? { weights: plan.weights } : {}),
    ...(estimate ? { estimate } : {}),
  };
  const input = toRunInput(runId, plan, plans.put(plannedCases(plan)), tracking);
  const tooLarge = inputTooLarge(input);
  if (tooLarge) throw new ConfigError(undefined, `${plan.experiments.length} experiments`, tooLarge);
  return { runId, input, header };
}

/** The whole run's estimate, recorded in its header so the closing line can compare; none if the adapter breaks it. */
export async function estimateTotal(planned: PlannedRun): Promise<Estimate | undefined> {
  try {
    return sumEstimates([...(await estimateRun(planned)).values()]);
  } catch {
    return undefined;
  }
}

/** Starts a prepared run on a task queue, tagged with its project. */
export async function startPrepared(
  link: TemporalLink,
  start: RunStart,
  taskQueue: string,
  project: string,
  pinnedTo?: Build,
): Promise<void> {
  await link.runs.start(taskQueue, start.input, start.header, project, undefined, pinnedTo);
}

/**
 * With Worker Versioning on, the build a run started from this checkout on the suite's queue is pinned to: this
 * checkout's (buildOf), once a worker of it has polled the queue (Temporal refuses a pin to a version the queue has
 * not seen). Undefined otherwise: the run then goes to the deployment's current version, and stays on it.
 */
export async function startBuild(
  link: TemporalLink,
  taskQueue: string,
  env: NodeJS.ProcessEnv,
): Promise<Build | undefined> {
  const build = await buildOf(taskQueue, env);
  return build && (await link.runs.buildOnQueue(build, taskQueue)) ? build : undefined;
}

/** Says that a run started, with its page in Temporal's UI. */
export function announce(link: TemporalLink, runId: string, io: Io): void {
  const page = runPage(link, runId);
  io.stderr.write(`run ${pc.bold(runId)} started${page ? ` ${pc.dim(page)}` : ''}\n`);
}

/**
 * Runs a plan on Temporal with a worker in this process, drawing progress, and saves the snapshot.
 * `underWay` is called once the run's first calls are out: work that can wait for them goes there.
 */
export async function runPlanned(
  planned: PlannedRun,
  request: RunRequest,
  io: Io,
  command: string,
  begun: RunBegun,
  underWay?: () => void,
): Promise<{ snapshot: Snapshot; file: string }> {
  // With an OTLP endpoint set, one trace shows the command, its workflows, their activities and each provider call.
  return traceCommand(io.env, `llm-evals ${command}`, (span) =>
    runTraced(planned, request, io, command, begun, span, underWay),
  );
}

async function runTraced(
  planned: PlannedRun,
  request: RunRequest,
  io: Io,
  command: string,
  { runId, tracking }: RunBegun,
  span?: { setAttributes(attributes: Record<string, string>): unknown },
  underWay?: () => void,
): Promise<{ snapshot: Snapshot; file: string }> {
  const link = await linkForCommand(planned.suite.projectDir, io, command, true);
  mark('linked');
  // Made (the bundle evaluated, the native worker created) while its run is estimated and started, so the run's first
  // task finds it soon; a run that never started leaves it unused.
  let made: Promise<SuiteWorker> | undefined;
  try {
    // A queue of its own: this process's worker serves this run, not other runs of the suite left waiting.
    const taskQueue = `${taskQueueFor(planned.suite.name, io.env)}/${runId}`;
    made = suiteWorker(link, taskQueue, planned, io.env);
    const start = prepareStart(planned, tracking, runId, await estimateTotal(planned));
    span?.setAttributes({ run_id: runId, suite: planned.suite.name });
    const [worker] = await Promise.all([
      made,
      startPrepared(link, start, taskQueue, planned.suite.projectDir),
    ]);
    mark('started');
    // Watched before the run is announced: whoever sees it started may stop it at once (serveRun answers it).
    io.watchInterrupt?.();
    announce(link, runId, io);
    io.lastWords?.(resumeHint(runId));
    const served = await serveRun(
      link,
      worker,
      runId,
      start.input,
      io,
      pausePolicy(request.yes, io),
      underWay,
    );
    if (served === 'interrupted') {
      io.stderr.write(resumeHint(runId) + '\n');
      throw new Interrupted(`run ${runId} interrupted`);
    }
    mark('run closed');
    const snapshot = await collectSnapshot(link, planned.cases, runId);
    mark('collected');
    attachAgreement(snapshot, planned.suite, io);
    return { snapshot, file: saveRunSnapshot(snapshot, planned.suite, request.save) };
  } finally {
    // A worker made for a run that did not start is shut down before the connection it polls on closes.
    await made?.then((w) => w.discard()).catch(() => undefined);
    await link.close();
  }
}
