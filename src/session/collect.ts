import { buildSnapshot, type Snapshot } from '../core/snapshot.ts';
import type { Tracked } from '../core/tracking.ts';
import type { LoadedCase } from '../suite/cases.ts';
import type { TemporalLink } from '../temporal/connect.ts';
import type { RunRecord } from '../temporal/runs.ts';

/**
 * The snapshot state of a run Temporal holds (done, stopped by its gate, or closed otherwise: cancelled, failed) and,
 * when it completed, how each experiment was tracked.
 */
async function stateOf(
  link: TemporalLink,
  runId: string,
  record: RunRecord,
): Promise<{ status: Snapshot['status']; tracked?: Record<string, Tracked> }> {
  if (record.status === 'COMPLETED') {
    const result = await link.runs.outcome(runId);
    const tracked = Object.fromEntries(
      result.experiments.flatMap((e) => (e.tracked ? [[e.id, e.tracked]] : [])),
    );
    return { status: result.state === 'aborted' ? 'aborted' : 'completed', tracked };
  }
  return { status: record.closed ? 'aborted' : 'partial' };
}

/**
 * Builds a run's snapshot from Temporal (every result its experiments hold, no worker needed) and the suite's cases
 * on disk; partial while the run goes on. `record` saves reading the run again when the caller has it.
 */
export async function collectSnapshot(
  link: TemporalLink,
  cases: readonly LoadedCase[],
  runId: string,
  known?: RunRecord,
): Promise<Snapshot> {
  const record = known?.closed ? known : await link.runs.read(runId);
  const [{ status, tracked }, results] = await Promise.all([
    stateOf(link, runId, record),
    link.runs.results(
      runId,
      record.input.experiments.map((e) => e.id),
    ),
  ]);
  return buildSnapshot({
    runId,
    header: record.header,
    input: record.input,
    status,
    results,
    cases,
    finishedAt: (record.closedAt ?? new Date()).toISOString(),
    ...(tracked ? { tracked } : {}),
  });
}
