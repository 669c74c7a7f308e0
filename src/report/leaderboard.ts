import pc from 'picocolors';
import { contenderName, intervalText, reportColumns, type ReportColumn } from './columns.ts';
import { formatCost, formatPercent } from './format.ts';
import { renderConsistency } from './consistency.ts';
import { renderFailures } from './failures.ts';
import { renderJudgeAgreement } from './judge-agreement.ts';
import { renderPairwise } from './pairwise.ts';
import { renderJudgeVariance } from './judge-variance.ts';
import { contenderLabel } from './palette.ts';
import { rescoreNote } from './rescore-note.ts';
import { renderScores, type ScoreLinks } from './scores.ts';
import {
  clusteringNote,
  clusteringOfSnapshot,
  formatP,
  formatPoints,
  tieFigures,
  TIED_MARK,
  WORSE_MARK,
} from './significance.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { standings, type Standing, type StandingsTable } from './standings.ts';
import { renderTable, type FitOptions } from './table.ts';
import { wrapProse } from './text-width.ts';
import { unfinishedHeadline, unfinishedVerdict } from './unfinished.ts';

/** What the TUI shows beyond the standings by dataset: which totals, and whether to list every experiment's score. */
export interface LeaderboardOptions extends ScoreLinks, FitOptions {
  /** `overall` (default): contenders across all cases; `variant`: each case folder across datasets; or both. */
  totals?: 'overall' | 'variant' | 'both';
  scores?: boolean;
}

/** A contender's coloured id with the settings that tell it apart. */
export function contenderTitle(row: Pick<Standing, 'contender' | 'contenderIndex'>): string {
  const name = contenderName(row.contender);
  return contenderLabel(row.contender, row.contenderIndex) + name.slice(row.contender.id.length);
}

function cell(column: ReportColumn, row: Standing): string {
  if (column.id === 'model') {
    const label = contenderLabel(row.contender, row.contenderIndex);
    if (row.tie) return `${label} ${pc.yellow(TIED_MARK)}`;
    return row.vsBest?.verdict === 'worse' ? `${label} ${pc.red(WORSE_MARK)}` : label;
  }
  if (column.id === 'vs_best' && row.vsBest) {
    const text = column.text(row);
    return row.vsBest.verdict === 'worse'
      ? pc.red(text)
      : row.vsBest.verdict === 'tied'
        ? pc.yellow(text)
        : text;
  }
  if (column.id === 'errors' && row.summary.errors > 0) return pc.red(column.text(row));
  if (column.id === 'truncated' && row.summary.truncated > 0) return pc.yellow(column.text(row));
  if (column.id === 'wscore') return pc.bold(column.text(row));
  return column.text(row);
}

/** The columns that name a row, repeated in every part of a leaderboard split to fit the terminal. */
const KEY_COLUMNS = new Set(['model', 'effort', 'temp', 'max_tokens']);

function table(
  groupHeader: string | undefined,
  tables: readonly StandingsTable[],
  columns: ReportColumn[],
  fit: FitOptions,
) {
  // A table without paired tests (by variant) has no difference from the best to show.
  if (!tables.some((t) => t.rows.some((r) => r.vsBest))) columns = columns.filter((c) => c.id !== 'vs_best');
  const head = groupHeader ? [{ header: groupHeader, key: true }] : [];
  const rows = tables.flatMap((t) =>
    t.rows.map((r) => [...(groupHeader ? [t.group] : []), ...columns.map((c) => cell(c, r))]),
  );
  const body = columns.map((c) => ({ header: c.id, align: c.align, key: KEY_COLUMNS.has(c.id) }));
  return renderTable([...head, ...body], rows, fit);
}

/** One line naming a table's best and its best value (the cheapest within 2 points of the best). */
export function bestLine(label: string, t: StandingsTable, ranking: string): string {
  const figure = (r: Standing) => `${formatPercent(r.rank)}${intervalText(r, ranking)} ${ranking}`;
  const { best, bestValue } = t;
  if (!best || !bestValue) return `${pc.bold(label)}: no best (every contender had errors or no score)`;
  const cost = (r: Standing) => formatCost(r.summary.usage.costUsd);
  // Without paired comparisons, with --repeat: a winner whose 95 % interval overlaps the runner-up's.
  const tie = (other: Standing | undefined) =>
    other && !t.tied
      ? ` ${pc.yellow(`(not separated from ${contenderTitle(other)}: their 95 % intervals overlap)`)}`
      : '';
  const tied = t.tied?.length
    ? `, ${pc.yellow(`tied with ${t.tied.map((r) => `${contenderTitle(r)} ${tieFigures(r)}`).join(', ')}`)}`
    : '';
  const worse = worseText(t);
  if (best === bestValue && (t.tied || t.bestTie === t.bestValueTie)) {
    return `${pc.bold(label)}: best and best value ${contenderTitle(best)}, ${figure(best)} at ${cost(best)}${tie(t.bestTie)}${tied}${worse}`;
  }
  return (
    `${pc.bold(label)}: best ${contenderTitle(best)}, ${figure(best)} at ${cost(best)}${tie(t.bestTie)}${tied}; ` +
    `best value ${contenderTitle(bestValue)}, ${figure(bestValue)} at ${cost(bestValue)}${tie(t.bestValueTie)}${worse}`
  );
}

/** `; worse than the best (p < 0.05): fake/b −20.0 points (95 % −31.2 to −8.8, p = 0.003)`, or `''` for none. */
function worseText(t: StandingsTable): string {
  const worse = t.rows.filter((r) => r.vsBest?.verdict === 'worse');
  if (worse.length === 0) return '';
  const each = worse.map((r) => {
    const v = r.vsBest!;
    return `${contenderTitle(r)} ${formatPoints(v.diff)} points (95 % ${formatPoints(v.ci95[0])} to ${formatPoints(v.ci95[1])}, ${formatP(v.pAdjusted)})`;
  });
  return `; ${pc.red(`worse than the best (p < 0.05): ${each.join(', ')}`)}`;
}

/** The glossary: every column shown, with what it means; wrapped to `width` under a hanging indent. */
export function renderGlossary(columns: readonly ReportColumn[], width?: number): string {
  return [
    'Glossary:',
    ...columns.map((c) => wrapProse(`  ${pc.bold(c.id)}: ${c.description}`, width, 4)),
  ].join('\n');
}

/**
 * The TUI leaderboard: standings by dataset with best-value lines, the totals asked for, why cases failed, the
 * glossary.
 */
export function renderLeaderboard(snapshot: Snapshot, options: LeaderboardOptions = {}): string {
  const s = standings(snapshot);
  const columns = reportColumns(snapshot);
  const totals = options.totals ?? 'overall';
  const fit = { width: options.width };
  // An unfinished run's verdicts say on how many of the planned results they stand (its experiments').
  const verdict = (label: string, t: StandingsTable) =>
    bestLine(label, t, s.ranking) +
    pc.yellow(unfinishedVerdict(snapshot, new Set(t.rows.flatMap((r) => r.experimentIds))));
  const block = (title: string, body: string, lines: string[]) =>
    [
      pc.bold(wrapProse(title, options.width)),
      body,
      ...lines.map((l) => wrapProse(l, options.width, 2)),
    ].join('\n');
  const parts = [
    block(`Standings by dataset, ranked by ${s.ranking}`, table('dataset', s.datasets, columns, fit), [
      ...s.datasets.map((t) => verdict(t.group, t)),
      pc.dim(clusteringNote(clusteringOfSnapshot(snapshot))),
    ]),
  ];
  // With one dataset the overall table would repeat it row for row.
  if (totals !== 'variant' && (s.datasets.length > 1 || options.totals)) {
    parts.push(
      block('All datasets: each contender across all cases', table(undefined, [s.overall], columns, fit), [
        verdict('all datasets', s.overall),
      ]),
    );
  }
  if (totals !== 'overall') {
    parts.push(
      block(
        'By variant: each case folder across datasets',
        table('variant', s.variants, columns, fit),
        s.variants.map((t) => verdict(t.group, t)),
      ),
    );
  }
  const consistency = renderConsistency(snapshot, options.width);
  if (consistency) parts.push(consistency);
  const variance = renderJudgeVariance(snapshot, options.width);
  if (variance) parts.push(variance);
  const agreement = renderJudgeAgreement(snapshot.judgeAgreement, options.width);
  if (agreement) parts.push(agreement);
  const pairwise = renderPairwise(snapshot, options.width);
  if (pairwise) parts.push(pairwise);
  const failures = renderFailures(snapshot, options.width);
  if (failures) parts.push(failures);
  parts.push(renderGlossary(columns, options.width));
  if (options.scores) parts.push(renderScores(snapshot, s, options, fit));
  const rescore = rescoreNote(snapshot);
  if (rescore) parts.unshift(pc.yellow(wrapProse(rescore, options.width)));
  const unfinished = unfinishedHeadline(snapshot);
  if (unfinished) parts.unshift(pc.yellow(pc.bold(wrapProse(unfinished, options.width))));
  return parts.join('\n\n');
}
