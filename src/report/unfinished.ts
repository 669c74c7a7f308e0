import type { Snapshot } from '../core/snapshot.ts';

// A run that did not complete ranks what finished. Its reports say so where the user looks first (the top) and where
// they act (each verdict), so a best picked on 14 of 40 cases never reads as a verdict on the dataset.

const HOW: Record<Snapshot['status'], string | undefined> = {
  completed: undefined,
  regressed: undefined,
  cancelled: 'was cancelled',
  aborted: 'was aborted',
  failed: 'failed',
  partial: 'is still going (partial)',
};

/** How many case results a set of experiments has, and how many it planned. */
function counts(snapshot: Snapshot, experimentIds?: ReadonlySet<string>): { done: number; planned: number } {
  const experiments = experimentIds
    ? snapshot.experiments.filter((e) => experimentIds.has(e.id))
    : snapshot.experiments;
  const ids = new Set(experiments.map((e) => e.id));
  return {
    done: snapshot.results.filter((r) => ids.has(r.experimentId)).length,
    planned: experiments.reduce((n, e) => n + e.caseKeys.length, 0),
  };
}

/** The line an unfinished run's TUI report opens with (cancelled, aborted, failed or still going); none otherwise. */
export function unfinishedHeadline(snapshot: Snapshot): string | undefined {
  const how = HOW[snapshot.status];
  if (!how) return undefined;
  const { done, planned } = counts(snapshot);
  return (
    `Run ${snapshot.runId} ${how}: ${done} of ${planned} case results. ` +
    'The standings rank only what finished; a best named on fewer cases than planned says so.'
  );
}

/**
 * What a verdict line of an unfinished run adds when its table ranks fewer results than planned (`experimentIds`:
 * the table's experiments, every one when omitted); `''` for a complete run or a table whose cases all finished.
 */
export function unfinishedVerdict(snapshot: Snapshot, experimentIds?: ReadonlySet<string>): string {
  const how = HOW[snapshot.status];
  if (!how) return '';
  const { done, planned } = counts(snapshot, experimentIds);
  const run = snapshot.status === 'partial' ? 'the run is still going' : `the run ${how}`;
  return done < planned ? ` (on ${done} of ${planned} planned results: ${run})` : '';
}
