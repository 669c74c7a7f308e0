import { datasetSize } from '../core/run-input.ts';
import { runStateOf } from '../core/run-state.ts';
import { tallyResults, type RunSummary } from '../core/run-summary.ts';
import { CodecKeyMissing } from '../client/codec.ts';
import type { TemporalLink } from '../client/connect.ts';
import type { RunListing, RunRecord } from '../client/runs.ts';
import type { CaseResult } from '../core/results.ts';

/**
 * One run's state, progress, errors, cost so far and duration, counted from the results in its experiments' histories
 * (no worker needed), with the record and results it was counted from; a run still going asks its gate briefly
 * whether it is paused.
 */
export async function summarizeRun(
  link: TemporalLink,
  { runId, suite }: Pick<RunListing, 'runId' | 'suite'>,
  now = new Date(),
): Promise<{ summary: RunSummary; record: RunRecord; results: CaseResult[] }> {
  const record = await link.runs.read(runId);
  const results = await link.runs.results(
    runId,
    record.input.experiments.map((e) => e.id),
  );
  const total = record.input.experiments.reduce((n, e) => n + datasetSize(record.input, e.dataset), 0);
  const ended = record.status === 'COMPLETED' ? (await link.runs.outcome(runId)).state : undefined;
  const gate = record.closed ? undefined : await link.runs.gate(runId, 500);
  const closedAt = record.closedAt;
  const summary: RunSummary = {
    runId,
    suite,
    state: runStateOf(record.status, ended, gate?.state),
    total,
    ...tallyResults(results),
    duration: ((closedAt ?? now).getTime() - record.startedAt.getTime()) / 1000,
    startedAt: record.startedAt.toISOString(),
    ...(closedAt ? { closedAt: closedAt.toISOString() } : {}),
  };
  return { summary, record, results };
}

/** The key id of a codec key this process lacks, when that is why `error` (or what caused it) was thrown. */
export function missingCodecKey(error: unknown): string | undefined {
  for (let e = error; e instanceof Error; e = e.cause)
    if (e instanceof CodecKeyMissing || (e as { type?: string }).type === 'CodecKeyMissing')
      return (e as CodecKeyMissing).keyId;
  return undefined;
}

/**
 * Each listed run's summary (summarizeRun); a run encrypted with a key this process lacks is listed as such, with
 * nothing counted, rather than failing the whole list.
 */
export async function summarizeRuns(
  link: TemporalLink,
  listings: readonly RunListing[],
  now = new Date(),
): Promise<RunSummary[]> {
  return Promise.all(
    listings.map(async (l) => {
      try {
        return (await summarizeRun(link, l, now)).summary;
      } catch (error) {
        const keyId = missingCodecKey(error);
        if (keyId === undefined) throw error;
        return {
          runId: l.runId,
          suite: l.suite,
          state: 'running',
          done: 0,
          total: 0,
          errors: 0,
          costUsd: null,
          duration: 0,
          startedAt: l.startedAt.toISOString(),
          encrypted: keyId,
        } satisfies RunSummary;
      }
    }),
  );
}
