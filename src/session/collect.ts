import { diffRuns, digestOf, primaryMetric } from '../core/run-change.ts';
import { buildSnapshot, type CaseOnDisk, type Snapshot, type SnapshotParts } from '../core/snapshot.ts';
import { runStateOf } from '../core/run-state.ts';
import type { Tracked } from '../core/tracking.ts';
import type { RunSchedule } from '../core/schedule-spec.ts';
import type { TemporalLink } from '../client/connect.ts';
import type { RunRecord } from '../client/runs.ts';
import { mark } from '../timing.ts';

type RunResult = Awaited<ReturnType<TemporalLink['runs']['outcome']>>;

/**
 * The snapshot state of a run Temporal holds (done, stopped by its gate, regressed, or closed otherwise: cancelled,
 * failed) and, when it completed, how each experiment was tracked.
 */
function stateOf(
  record: RunRecord,
  outcome: RunResult | undefined,
): { status: Snapshot['status']; tracked?: Record<string, Tracked> } {
  if (outcome) {
    const tracked = Object.fromEntries(
      outcome.experiments.flatMap((e) => (e.tracked ? [[e.id, e.tracked]] : [])),
    );
    return { status: outcome.state, tracked };
  }
  if (!record.closed) return { status: 'partial' };
  const state = runStateOf(record.status);
  return { status: state === 'cancelled' ? 'cancelled' : 'failed' };
}

/**
 * A scheduled run's extras: the change since its schedule's previous run, why it regressed, and the schedule's
 * trend up to this run. A previous run Temporal no longer holds leaves the change out rather than failing the report.
 */
async function scheduledParts(
  link: TemporalLink,
  record: RunRecord,
  schedule: RunSchedule,
  base: Snapshot,
  outcome: RunResult | undefined,
): Promise<Pick<SnapshotParts, 'change' | 'regression' | 'trend'>> {
  const before = schedule.previousRunId
    ? await link.runs.digest(schedule.previousRunId).catch(() => undefined)
    : undefined;
  const listing = await link.schedules.runsOf(schedule.id, 50);
  const upTo = listing.filter((r) => r.startedAt.getTime() <= record.startedAt.getTime());
  // The report draws the trend with each point's interval.
  const trend = await link.schedules.trend(upTo, primaryMetric(base.metrics), undefined, true);
  return {
    ...(before ? { change: diffRuns(before, digestOf(base)) } : {}),
    ...(outcome?.regression?.length ? { regression: outcome.regression } : {}),
    trend,
  };
}

/**
 * Builds a run's snapshot from Temporal (every result its experiments hold, no worker needed) and the suite's cases
 * on disk, read once the results are (see SnapshotParts.cases); partial while the run goes on. `record` saves
 * reading the run again when the caller has it.
 */
export async function collectSnapshot(
  link: TemporalLink,
  cases: Iterable<CaseOnDisk>,
  runId: string,
  known?: RunRecord,
): Promise<Snapshot> {
  const record = known?.closed ? known : await link.runs.read(runId);
  const [outcome, results] = await Promise.all([
    record.status === 'COMPLETED' ? link.runs.outcome(runId) : undefined,
    link.runs.results(
      runId,
      record.input.experiments.map((e) => e.id),
    ),
  ]);
  mark('histories read');
  const { status, tracked } = stateOf(record, outcome);
  const schedule = record.header.schedule ?? record.input.schedule;
  const parts: SnapshotParts = {
    runId,
    header: record.header,
    input: record.input,
    status,
    results,
    // A scheduled run's snapshot is built twice (below), and a reader of the cases reads them once.
    cases: schedule ? Array.from(cases) : cases,
    finishedAt: (record.closedAt ?? new Date()).toISOString(),
    ...(tracked ? { tracked } : {}),
  };
  if (!schedule) return buildSnapshot(parts);
  // The change since the schedule's previous run is read off this run's figures; the statistics wait for the
  // snapshot that carries it, so they are computed once.
  const base = buildSnapshot(parts, { statistics: false });
  return buildSnapshot({ ...parts, ...(await scheduledParts(link, record, schedule, base, outcome)) });
}
