import pc from 'picocolors';
import { formatCost, formatPercent, formatSeconds } from './format.ts';
import { contenderSettings } from './columns.ts';
import { contenderLabel } from './palette.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { renderTable, type FitOptions } from './table.ts';

/** `run`'s per-case breakdown: each case's score, metrics, latency, cost and error, by contender named in full. */
export function renderBreakdown(snapshot: Snapshot, fit: FitOptions = {}): string {
  const experiments = new Map(snapshot.experiments.map((e) => [e.id, e]));
  const contenders = new Map(snapshot.contenders.map((c, i) => [c.key, { c, i }]));
  const rows = snapshot.results.map((r) => {
    const e = experiments.get(r.experimentId)!;
    const { c, i } = contenders.get(e.contender)!;
    return [
      r.caseKey,
      contenderLabel(c, i) + contenderSettings(c),
      formatPercent(r.score),
      ...snapshot.metrics.map((m) => formatPercent(r.metrics[m.name])),
      formatSeconds(r.latency),
      formatCost(r.usage.costUsd),
      r.error ? pc.red(r.error.slice(0, 60)) : '',
    ];
  });
  return renderTable(
    [
      { header: 'case', key: true },
      { header: 'contender', key: true },
      { header: 'score', align: 'right' },
      ...snapshot.metrics.map((m) => ({ header: m.name, align: 'right' as const })),
      { header: 'latency', align: 'right' },
      { header: 'cost', align: 'right' },
      { header: 'error' },
    ],
    rows,
    fit,
  );
}
