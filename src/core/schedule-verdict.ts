// A schedule's verdict on a run: the change since its previous run held against the schedule's bar.
import type { RunChange, RunDigest } from './run-change.ts';
import type { RunSchedule } from './schedule-spec.ts';

/** Whether a run regressed, and why: each contender on a dataset that fell below the schedule's bar. */
export interface Verdict {
  regressed: boolean;
  reasons: string[];
}

const points = (v: number) => `${(v * 100).toFixed(1)}%`;

/**
 * Judges a run against its schedule's bar: a contender on a dataset whose primary score fell by more than
 * `maxDrop` points since the previous run (or has no score any more), or sits below `minScore`, regresses the run.
 * Contenders or datasets new since the previous run are held only to `minScore`.
 */
export function judgeRegression(
  after: RunDigest,
  change: RunChange | undefined,
  bar: Pick<RunSchedule, 'maxDrop' | 'minScore'>,
  label: (contenderKey: string) => string = (key) => key,
): Verdict {
  const reasons: string[] = [];
  const primary = after.primary;
  if (bar.maxDrop !== undefined && change) {
    for (const row of change.rows) {
      const { before, after: now } = row.score;
      if (row.presence !== 'both' || before === null) continue;
      const name = `${label(row.contender)} on ${row.dataset}`;
      if (now === null) reasons.push(`${name}: ${primary} ${points(before)} → no score`);
      else if ((before - now) * 100 > bar.maxDrop + 1e-9) {
        const drop = ((before - now) * 100).toFixed(1);
        reasons.push(
          `${name}: ${primary} ${points(before)} → ${points(now)}, down ${drop} points (max drop ${bar.maxDrop})`,
        );
      }
    }
  }
  if (bar.minScore !== undefined) {
    for (const row of after.rows) {
      if (row.score !== null && row.score >= bar.minScore - 1e-9) continue;
      const now = row.score === null ? 'no score' : points(row.score);
      reasons.push(
        `${label(row.contender)} on ${row.dataset}: ${primary} ${now}, under the min score ${points(bar.minScore)}`,
      );
    }
  }
  return { regressed: reasons.length > 0, reasons };
}
