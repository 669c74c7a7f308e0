import pc from 'picocolors';
import { formatPercent, formatTemperature } from './format.ts';
import { safeId } from './html-escape.ts';
import { contenderLabel } from './palette.ts';
import type { Snapshot } from '../core/snapshot.ts';
import type { Standings } from './standings.ts';
import { renderTable, type FitOptions } from './table.ts';

/** Where `--scores` points an experiment when no tracker recorded a page for it. */
export interface ScoreLinks {
  /** The HTML report's URL: each experiment links to its row there. */
  reportUrl?: string;
  /** The saved snapshot, the run's local log, when there is no HTML report. */
  snapshotFile?: string;
}

/** The HTML report's anchor of an experiment's row. */
export function experimentAnchor(experimentId: string): string {
  return `experiment-${safeId(experimentId)}`;
}

/** `--scores`: every experiment by its ranking value, best first, with its tracker link. */
export function renderScores(
  snapshot: Snapshot,
  s: Standings,
  links: ScoreLinks = {},
  fit: FitOptions = {},
): string {
  const rows = s.datasets
    .flatMap((t) => t.rows.map((r) => ({ dataset: t.group, row: r, experimentId: r.experimentIds[0] ?? '' })))
    .sort((a, b) => (b.row.rank ?? -1) - (a.row.rank ?? -1));
  const linkOf = (id: string) =>
    snapshot.links?.[id] ??
    (links.reportUrl ? `${links.reportUrl}#${experimentAnchor(id)}` : (links.snapshotFile ?? '-'));
  const budgets = snapshot.contenders.some((c) => c.maxTokens !== null);
  const table = renderTable(
    [
      { header: '#', align: 'right', key: true },
      { header: 'dataset' },
      { header: 'model', key: true },
      { header: 'effort' },
      { header: 'temp' },
      ...(budgets ? [{ header: 'max' }] : []),
      { header: s.ranking, align: 'right' },
      { header: 'errors', align: 'right' },
      { header: 'link' },
    ],
    rows.map(({ dataset, row, experimentId }, i) => [
      String(i + 1),
      dataset,
      contenderLabel(row.contender, row.contenderIndex),
      row.contender.effort,
      formatTemperature(row.contender.temperature),
      ...(budgets ? [row.contender.maxTokens === null ? 'default' : String(row.contender.maxTokens)] : []),
      formatPercent(row.rank),
      row.summary.errors ? pc.red(String(row.summary.errors)) : '0',
      pc.dim(linkOf(experimentId)),
    ]),
    fit,
  );
  return [pc.bold(`Every experiment by ${s.ranking}`), table].join('\n');
}
