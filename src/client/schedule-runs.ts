import { WorkflowFailedError, type Client } from '@temporalio/client';
import { pointIntervals, type PointInterval } from '../core/comparisons.ts';
import type { RunDigest, Trend } from '../core/run-change.ts';
import { runStateOf, type RunState } from '../core/run-state.ts';
import { listingClient } from './codec.ts';
import type { RunRecord, Runs } from './runs.ts';

/** A run of a schedule, from visibility alone. */
export interface ScheduledRunListing {
  runId: string;
  state: RunState;
  startedAt: Date;
  closedAt?: Date;
}

/** A fire of a schedule that has no run to show: still planning (waiting for a worker), or failed before its run. */
export interface FireProblem {
  workflowId: string;
  scheduledAt: Date;
  state: 'planning' | 'failed';
  message?: string;
}

const quoted = (value: string) => `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const first = (value: unknown) => (Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '');

/** A schedule's runs, newest first, found through the search attribute each scheduled run carries. */
export async function scheduledRuns(
  client: Client,
  scheduleId: string,
  limit = 20,
): Promise<ScheduledRunListing[]> {
  const query = [
    `WorkflowType = 'compareRun'`,
    `ExecutionStatus != 'ContinuedAsNew'`,
    `LlmEvalsSchedule = ${quoted(scheduleId)}`,
  ].join(' AND ');
  const found: ScheduledRunListing[] = [];
  for await (const run of listingClient(client).workflow.list({ query })) {
    found.push({
      runId: first(run.searchAttributes?.LlmEvalsRunId),
      state: runStateOf(run.status.name, first(run.searchAttributes?.LlmEvalsState)),
      startedAt: run.startTime,
      ...(run.closeTime ? { closedAt: run.closeTime } : {}),
    });
    if (found.length >= limit) break;
  }
  return found.sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
}

/** The schedule's newest run that completed, regressed or not: what its next run compares with. */
export async function previousScheduledRun(client: Client, scheduleId: string): Promise<string | undefined> {
  const runs = await scheduledRuns(client, scheduleId, 50);
  return runs.find((r) => r.state === 'completed' || r.state === 'regressed')?.runId;
}

/** The message of a failure's deepest cause: the planner's own words, not "Activity task failed". */
function rootMessage(error: Error): string {
  let deepest: Error = error;
  while (deepest.cause instanceof Error) deepest = deepest.cause;
  return deepest.message;
}

/** The fires among `recent` that have no run to show yet, or never will: planning, or failed while planning. */
export async function fireProblems(
  client: Client,
  recent: readonly { workflowId: string; scheduledAt: Date }[],
): Promise<FireProblem[]> {
  const problems = await Promise.all(
    recent.map(async ({ workflowId, scheduledAt }): Promise<FireProblem | undefined> => {
      const handle = client.workflow.getHandle(workflowId);
      const description = await handle.describe().catch(() => undefined);
      if (!description) return undefined;
      const status = description.status.name;
      if (status === 'RUNNING') {
        // Its run started as a child once planned; before that, it waits for a worker of the suite.
        const children = description.raw.pendingChildren?.length ?? 0;
        return children ? undefined : { workflowId, scheduledAt, state: 'planning' };
      }
      if (status === 'COMPLETED') return undefined;
      const message = await handle.result().then(
        () => undefined,
        (error: unknown) => (error instanceof WorkflowFailedError ? rootMessage(error) : String(error)),
      );
      return { workflowId, scheduledAt, state: 'failed', ...(message ? { message } : {}) };
    }),
  );
  return problems.filter((p): p is FireProblem => p !== undefined);
}

/**
 * The schedule's last runs that were judged (completed or regressed), oldest first, with each contender's primary
 * score per dataset — read from what each run returned, so no history is replayed; with `intervals`, each score's
 * 95 % interval over its cases too, which reads every result of each run.
 */
export async function scheduleTrend(
  runs: Runs,
  listing: readonly ScheduledRunListing[],
  primary: string,
  limit = 12,
  intervals = false,
): Promise<Trend> {
  const judged = listing.filter((r) => r.state === 'completed' || r.state === 'regressed').slice(0, limit);
  const points = await Promise.all(
    judged.map(async (r) => {
      const [record, result] = await Promise.all([runs.read(r.runId), runs.outcome(r.runId)]);
      return { record, result, listing: r };
    }),
  );
  const boundsOf = async ({ input, header }: RunRecord): Promise<PointInterval[]> => {
    const results = await runs.results(
      input.runId,
      input.experiments.map((e) => e.id),
    );
    const experiments = input.experiments.map((e) => ({
      id: e.id,
      contender: input.contenders[e.contender]!.key,
      dataset: e.dataset,
    }));
    return pointIntervals(
      { runId: input.runId, metrics: header.metrics, contenders: input.contenders, experiments, results },
      primary,
    );
  };
  // Three runs at a time: each reads its experiments' results eight at a time.
  const bounds: PointInterval[][] = [];
  for (let i = 0; intervals && i < points.length; i += 3) {
    bounds.push(...(await Promise.all(points.slice(i, i + 3).map((p) => boundsOf(p.record)))));
  }
  const contenders = new Map(points.flatMap((p) => p.record.input.contenders.map((c) => [c.key, c])));
  return {
    primary,
    contenders: [...contenders.values()],
    runs: points
      .map(({ result, listing }, i) => ({
        runId: listing.runId,
        at: listing.startedAt.toISOString(),
        state: listing.state,
        scores: (result.scores ?? []).map(({ contender, dataset, score }) => ({ contender, dataset, score })),
        ...(bounds[i] ? { intervals: bounds[i] } : {}),
      }))
      .reverse(),
  };
}

/**
 * The digests of the schedule's last `limit` judged runs (completed or regressed), oldest first: each case's value
 * per contender, what the cases that flipped are counted over. A few at a time, as each reads every result of its run.
 */
export async function scheduleDigests(
  runs: Pick<Runs, 'digest'>,
  listing: readonly ScheduledRunListing[],
  limit: number,
): Promise<RunDigest[]> {
  const judged = listing.filter((r) => r.state === 'completed' || r.state === 'regressed').slice(0, limit);
  const digests: RunDigest[] = [];
  for (let i = 0; i < judged.length; i += 4) {
    digests.push(...(await Promise.all(judged.slice(i, i + 4).map((r) => runs.digest(r.runId)))));
  }
  return digests.reverse();
}
