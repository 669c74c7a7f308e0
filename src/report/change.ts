import pc from 'picocolors';
import type { ChangeRow, Figure, RunChange } from '../core/run-change.ts';
import { contenderName } from './columns.ts';
import { formatCost, formatPercent, formatSeconds } from './format.ts';
import { clusteringNote, formatP } from './significance.ts';
import { renderTable, type FitOptions } from './table.ts';

/** A signed delta in points of a 0..1 share: `+2.5`, `-10.0`, `±0.0`, or `-` when unknown. */
export function formatPoints(delta: number | null): string {
  if (delta === null) return '-';
  const p = delta * 100;
  if (Math.abs(p) < 0.05) return '±0.0';
  return `${p > 0 ? '+' : ''}${p.toFixed(1)}`;
}

const signed = (delta: number | null, format: (v: number) => string) =>
  delta === null ? '-' : delta === 0 ? '±0' : `${delta > 0 ? '+' : '-'}${format(Math.abs(delta))}`;

/** The contender's name in a change, by its key; a key no run knows stays as it is. */
export function changeLabel(change: RunChange, key: string): string {
  const c = change.contenders.find((x) => x.key === key);
  return c ? contenderName(c) : key;
}

/** A share then → now with its delta in points, coloured by direction when asked: what a change's score cells say. */
export function shareCell(f: Figure, colour = true): string {
  const text = `${formatPercent(f.before)} → ${formatPercent(f.after)} (${formatPoints(f.delta)})`;
  if (!colour || f.delta === null || Math.abs(f.delta) < 0.0005) return text;
  return f.delta < 0 ? pc.red(text) : pc.green(text);
}

/** Each cell of a change's row as text: presence, score, wscore, cost, latency and errors, then → now. */
export function changeCells(row: ChangeRow, colour = true): Record<string, string> {
  return {
    presence: row.presence === 'both' ? '' : row.presence,
    score: shareCell(row.score, colour),
    wscore: row.wscore.before === null && row.wscore.after === null ? '-' : shareCell(row.wscore, colour),
    cost: `${formatCost(row.cost.after)} (${signed(row.cost.delta, (v) => formatCost(v))})`,
    latency: `${formatSeconds(row.latency.after)} (${signed(row.latency.delta, (v) => formatSeconds(v))})`,
    errors: `${row.errors.before ?? '-'} → ${row.errors.after ?? '-'}`,
    paired: pairedCell(row),
  };
}

/** A row's paired test in a few words: `significant (p = 0.003, 40 cases)`, `noise (…)`, or `-` without one. */
export function pairedCell(row: ChangeRow): string {
  const p = row.paired;
  if (!p) return '-';
  const figures = `${formatP(p.pAdjusted)}, ${p.n} ${p.n === 1 ? 'case' : 'cases'}`;
  return p.significant ? `significant (${figures})` : `noise (${figures})`;
}

/** The cases that flipped between the two runs, each with its reply then and now; none when nothing flipped. */
export function flipLines(change: RunChange): string[] {
  const lines: string[] = [];
  const quote = (text: string) => JSON.stringify(text.replace(/\s+/g, ' '));
  for (const row of change.rows) {
    const p = row.paired;
    if (!p || p.flippedToWrong + p.flippedToRight === 0) continue;
    lines.push(
      `${changeLabel(change, row.contender)} on ${row.dataset}: ${p.flippedToWrong} right → wrong, ` +
        `${p.flippedToRight} wrong → right`,
    );
    const list = (flips: typeof p.toWrong, arrow: string, total: number) => {
      for (const f of flips) lines.push(`  ${arrow} ${f.caseKey}: ${quote(f.before)} → ${quote(f.after)}`);
      if (total > flips.length) lines.push(`  … and ${total - flips.length} more`);
    };
    list(p.toWrong, 'right → wrong', p.flippedToWrong);
    list(p.toRight, 'wrong → right', p.flippedToRight);
  }
  return lines;
}

/** The lines that name contenders and cases added, gone or edited between the two runs; none when they match. */
export function setChanges(change: RunChange): string[] {
  const lines: string[] = [];
  const names = (keys: string[]) => keys.map((k) => changeLabel(change, k)).join(', ');
  if (change.addedContenders.length) lines.push(`contenders added: ${names(change.addedContenders)}`);
  if (change.goneContenders.length) lines.push(`contenders gone: ${names(change.goneContenders)}`);
  const { added, gone, changed } = change.cases;
  if (added.length) lines.push(`cases added (${added.length}): ${added.join(', ')}`);
  if (gone.length) lines.push(`cases gone (${gone.length}): ${gone.join(', ')}`);
  if (changed.length) lines.push(`cases edited (${changed.length}): ${changed.join(', ')}`);
  return lines;
}

/**
 * A change between two runs in the terminal: per dataset and contender, the primary score and wscore then →
 * now with the delta in points, cost and latency with their deltas, errors; then contenders and cases added or gone.
 */
export function renderChange(change: RunChange, fit: FitOptions = {}): string {
  const title =
    `${pc.bold('change')} since ${change.before.runId} (${change.before.createdAt}) → ${change.after.runId}` +
    ` (${change.after.createdAt})`;
  const rows = change.rows.map((r) => {
    const cells = changeCells(r);
    const name = changeLabel(change, r.contender) + (cells.presence ? ` (${cells.presence})` : '');
    const paired = r.paired?.significant ? pc.bold(cells.paired) : cells.paired!;
    return [r.dataset, name, cells.score!, cells.wscore!, cells.cost!, cells.latency!, cells.errors!, paired];
  });
  const table = renderTable(
    [
      { header: 'dataset', key: true },
      { header: 'model', key: true },
      { header: change.primary },
      { header: 'wscore' },
      { header: 'cost (Δ)', align: 'right' },
      { header: 'latency (Δ)', align: 'right' },
      { header: 'errors' },
      { header: 'paired test' },
    ],
    rows,
    fit,
  );
  const sets = setChanges(change);
  const flips = flipLines(change);
  return [
    title,
    table,
    ...(sets.length ? sets : ['same contenders and cases']),
    ...(change.clustering ? [clusteringNote(change.clustering)] : []),
    ...(flips.length ? ['', pc.bold('cases that flipped'), ...flips] : []),
  ].join('\n');
}

/** Why a run regressed, one reason a line, in red; empty when it did not. */
export function renderRegression(reasons: readonly string[] | undefined): string {
  if (!reasons?.length) return '';
  return [pc.red(pc.bold('regressed:')), ...reasons.map((r) => pc.red(`  ${r}`))].join('\n');
}
