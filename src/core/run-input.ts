import type { BatchPolling } from './batch.ts';
import type { Contender, RateLimit } from './matrix.ts';
import type { Plan } from './plan.ts';
import type { RunSchedule } from './schedule-spec.ts';
import type { Tracking } from './tracking.ts';

/** A run's cases: per dataset, `[key, hash]` of each case in the order its experiments lease them. */
export type PlannedCases = Record<string, [key: string, hash: string][]>;

/**
 * Where a run's cases are: the plan kept under `digest` in the plan store, and per dataset its size and the digest of
 * its `[key, hash]` list (a worker without the plan file rebuilds the list from the suite and checks it by this).
 */
export interface PlanRef {
  digest: string;
  datasets: Record<string, { size: number; digest: string }>;
}

/** Which cases of a plan an experiment runs: the plan's digest and its dataset's (index `i` is the dataset's `i`th). */
export interface ExperimentCases {
  plan: string;
  dataset: string;
  digest: string;
}

/**
 * What the compare-run workflow receives: the plan without what only the snapshot needs, and a reference to its cases
 * (`plan`), never their list, which grows with the suite. Runs started before 0.3 carry the list (`datasets`).
 */
export interface RunInput {
  runId: string;
  suite: string;
  contenders: Contender[];
  experiments: { id: string; contender: number; dataset: string }[];
  plan?: PlanRef;
  /** The cases as `[key, hash]` per dataset, in runs started before the plan store; read it with `casesOf`. */
  datasets?: PlannedCases;
  parallelism: number;
  concurrency: number;
  limits: Record<string, RateLimit>;
  /** Per key: the most calls in flight at once; absent from runs started before it existed. */
  inFlight?: Record<string, number>;
  abortAfter?: { total: number; percent?: number };
  /** A scheduled run: judged against its schedule's previous run before it ends. */
  schedule?: RunSchedule;
  /** Where each finished experiment is sent besides the local log; absent in runs started before trackers. */
  tracking?: Tracking;
  /** `--batch`: how experiments wait on their batches; absent in other runs. */
  batch?: BatchPolling;
}

/** A plan's cases as `[key, hash]` per dataset, in plan order: what the plan store keeps. */
export function plannedCases(plan: Pick<Plan, 'cases'>): PlannedCases {
  const datasets: PlannedCases = {};
  for (const c of plan.cases) (datasets[c.dataset] ??= []).push([c.key, c.hash]);
  return datasets;
}

/** How many cases a dataset of the run has. */
export function datasetSize(input: Pick<RunInput, 'plan' | 'datasets'>, dataset: string): number {
  return input.plan?.datasets[dataset]?.size ?? input.datasets?.[dataset]?.length ?? 0;
}

/** The run's datasets, in plan order. */
export function datasetNames(input: Pick<RunInput, 'plan' | 'datasets'>): string[] {
  return Object.keys(input.plan?.datasets ?? input.datasets ?? {});
}

/**
 * The run's cases: as its input carries them (a run started before the plan store), else as `readPlan` finds them
 * under the plan's digest; undefined when neither has them (the plan file is on another machine).
 */
export function casesOf(
  input: Pick<RunInput, 'plan' | 'datasets'>,
  readPlan: (digest: string) => PlannedCases | undefined,
): PlannedCases | undefined {
  return input.datasets ?? (input.plan ? readPlan(input.plan.digest) : undefined);
}

/** Derives the workflow's input from a plan whose cases were kept under `cases`, and the trackers chosen for it. */
export function toRunInput(runId: string, plan: Plan, cases: PlanRef, tracking?: Tracking): RunInput {
  const contenderIndex = new Map(plan.contenders.map((c, i) => [c.key, i]));
  return {
    runId,
    suite: plan.suite.name,
    contenders: plan.contenders,
    experiments: plan.experiments.map((e) => ({
      id: e.id,
      contender: contenderIndex.get(e.contender)!,
      dataset: e.dataset,
    })),
    plan: cases,
    parallelism: plan.settings.parallelism,
    concurrency: plan.settings.concurrency,
    limits: plan.limits,
    ...(Object.keys(plan.inFlight).length ? { inFlight: plan.inFlight } : {}),
    ...(plan.abortAfter ? { abortAfter: plan.abortAfter } : {}),
    ...(tracking ? { tracking } : {}),
    ...(plan.settings.batch ? { batch: { poll: plan.settings.batch.poll } } : {}),
  };
}

/** The most a Temporal server takes in one payload by default (its blob size limit): a run's input must fit in it. */
export const PAYLOAD_LIMIT = 2 * 1024 * 1024;

/**
 * Why a run's input is too large for the server (JSON over PAYLOAD_LIMIT), to be refused before anything is sent;
 * undefined when it fits. Cases travel by reference, but contenders and experiments ride in the input.
 */
export function inputTooLarge(input: RunInput): string | undefined {
  const bytes = new TextEncoder().encode(JSON.stringify(input)).length;
  if (bytes <= PAYLOAD_LIMIT) return undefined;
  return (
    `the run's input is ${(bytes / 1048576).toFixed(1)} MB, over the ${PAYLOAD_LIMIT / 1048576} MB a Temporal ` +
    'server takes in one payload: run fewer contenders or datasets at a time (-m, -d)'
  );
}

/** The workflow id of a run's top workflow, from which every other id of the run derives. */
export function runWorkflowId(runId: string): string {
  return `llm-evals/${runId}`;
}

/** The workflow id of a run's gate: its rate limits, back-off windows, error counts, pause and abort. */
export function gateWorkflowId(runId: string): string {
  return `${runWorkflowId(runId)}/gate`;
}

/** The workflow id of one experiment of a run. */
export function experimentWorkflowId(runId: string, experimentId: string): string {
  return `${runWorkflowId(runId)}/${experimentId}`;
}

/**
 * The id of a scheduled run, shaped like any run's (`20250106-030000-k3x9`): the fire's time and a tag of the fire.
 * The tag's end is taken: Temporal's run ids (UUIDv7) start with the time, so their starts repeat fire after fire.
 */
export function scheduledRunId(firedAt: Date, tag: string): string {
  const stamp = firedAt.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const end = tag.replace(/[^a-z0-9]/gi, '').slice(-4);
  return `${stamp}-${end.toLowerCase()}`;
}

/**
 * One experiment: a contender over one dataset's `total` cases, which its pools find in the run's plan (`plan`),
 * `parallelism` calls in flight. Experiments started before the plan store list their cases, `[key, hash]` each.
 */
export interface ExperimentInput {
  runId: string;
  experimentId: string;
  dataset: string;
  contender: Contender;
  total?: number;
  plan?: ExperimentCases;
  cases?: [key: string, hash: string][];
  parallelism: number;
  /** `--batch`: the calls go out as the provider's batches before the pool runs; absent in other runs. */
  batch?: BatchPolling;
}
