import { runStateOf } from '../core/run-state.ts';
import { tallyResults, type RunSummary } from '../core/run-summary.ts';
import type { TemporalLink } from '../client/connect.ts';
import type { RunListing } from '../client/runs.ts';

/**
 * Each listed run's state, progress, errors, cost so far and duration, counted from the results in its experiments'
 * histories (no worker needed); a run still going asks its gate briefly whether it is paused.
 */
export async function summarizeRuns(
  link: TemporalLink,
  listings: readonly RunListing[],
  now = new Date(),
): Promise<RunSummary[]> {
  return Promise.all(
    listings.map(async (listing): Promise<RunSummary> => {
      const record = await link.runs.read(listing.runId);
      const results = await link.runs.results(
        listing.runId,
        record.input.experiments.map((e) => e.id),
      );
      const total = record.input.experiments.reduce(
        (n, e) => n + (record.input.datasets[e.dataset]?.length ?? 0),
        0,
      );
      const ended =
        record.status === 'COMPLETED' ? (await link.runs.outcome(listing.runId)).state : undefined;
      const gate = record.closed ? undefined : await link.runs.gate(listing.runId, 500);
      const closedAt = record.closedAt;
      return {
        runId: listing.runId,
        suite: listing.suite,
        state: runStateOf(record.status, ended, gate?.state),
        total,
        ...tallyResults(results),
        duration: ((closedAt ?? now).getTime() - record.startedAt.getTime()) / 1000,
        startedAt: record.startedAt.toISOString(),
        ...(closedAt ? { closedAt: closedAt.toISOString() } : {}),
      };
    }),
  );
}
