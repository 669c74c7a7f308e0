import type { BatchPolling } from './batch.ts';
import type { Contender, RateLimit } from './matrix.ts';
import type { Plan } from './plan.ts';
import type { RunSchedule } from './schedule-spec.ts';
import type { Tracking } from './tracking.ts';

/** What the compare-run workflow receives: the plan without what only the snapshot needs, cases as `[key, hash]` per dataset. */
export interface RunInput {
  runId: string;
  suite: string;
  contenders: Contender[];
  experiments: { id: string; contender: number; dataset: string }[];
  datasets: Record<string, [key: string, hash: string][]>;
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

/** Derives the workflow's input from a plan, and the trackers chosen for it. */
export function toRunInput(runId: string, plan: Plan, tracking?: Tracking): RunInput {
  const contenderIndex = new Map(plan.contenders.map((c, i) => [c.key, i]));
  const datasets: RunInput['datasets'] = {};
  for (const c of plan.cases) (datasets[c.dataset] ??= []).push([c.key, c.hash]);
  return {
    runId,
    suite: plan.suite.name,
    contenders: plan.contenders,
    experiments: plan.experiments.map((e) => ({
      id: e.id,
      contender: contenderIndex.get(e.contender)!,
      dataset: e.dataset,
    })),
    datasets,
    parallelism: plan.settings.parallelism,
    concurrency: plan.settings.concurrency,
    limits: plan.limits,
    ...(Object.keys(plan.inFlight).length ? { inFlight: plan.inFlight } : {}),
    ...(plan.abortAfter ? { abortAfter: plan.abortAfter } : {}),
    ...(tracking ? { tracking } : {}),
    ...(plan.settings.batch ? { batch: { poll: plan.settings.batch.poll } } : {}),
  };
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
