import pc from 'picocolors';
import { oneLine } from '../core/failures.ts';
import { formatCost, formatPercent, formatSeconds } from './format.ts';
import { contenderSettings } from './columns.ts';
import { contenderLabel } from './palette.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { renderTable, type FitOptions } from './table.ts';

/** An error as one table cell: on one line (a newline would break the table's rows), cut at 60 characters. */
function errorCell(error: string | undefined): string {
  if (!error) return '';
  const line = oneLine(error);
  return pc.red(line.length > 60 ? `${line.slice(0, 59)}…` : line);
}

/**
 * `run`'s per-case breakdown: each case's score (unless a metric is named so), metrics, latency, cost and error,
 * each contender named in full.
 */
export function renderBreakdown(snapshot: Snapshot, fit: FitOptions = {}): string {
  const scoreColumn = !snapshot.metrics.some((m) => m.name === 'score');
  const experiments = new Map(snapshot.experiments.map((e) => [e.id, e]));
  const contenders = new Map(snapshot.contenders.map((c, i) => [c.key, { c, i }]));
  const rows = snapshot.results.map((r) => {
    const e = experiments.get(r.experimentId)!;
    const { c, i } = contenders.get(e.contender)!;
    return [
      r.caseKey,
      contenderLabel(c, i) + contenderSettings(c),
      ...(scoreColumn ? [formatPercent(r.score)] : []),
      ...snapshot.metrics.map((m) => formatPercent(r.metrics[m.name])),
      formatSeconds(r.latency),
      formatCost(r.usage.costUsd),
      errorCell(r.error),
    ];
  });
  return renderTable(
    [
      { header: 'case', key: true },
      { header: 'contender', key: true },
      ...(scoreColumn ? [{ header: 'score', align: 'right' as const }] : []),
      ...snapshot.metrics.map((m) => ({ header: m.name, align: 'right' as const })),
      { header: 'latency', align: 'right' },
      { header: 'cost', align: 'right' },
      { header: 'error' },
    ],
    rows,
    fit,
  );
}
