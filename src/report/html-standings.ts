import { direction, weightShares } from '../core/weights.ts';
import { contenderName, type ReportColumn } from './columns.ts';
import { formatCost, formatPercent } from './format.ts';
import { esc } from './html-escape.ts';
import { splitId } from './palette.ts';
import { experimentAnchor } from './scores.ts';
import {
  formatP,
  formatPoints,
  tieFigures,
  tieTooltip,
  TIED_MARK,
  versusSentence,
  WORSE_MARK,
} from './significance.ts';
import type { Standing, Standings, StandingsTable } from './standings.ts';

/** A contender's id as HTML: the provider part in the provider's colour, the model in its own (as in the TUI). */
export function modelHtml(row: Pick<Standing, 'contender' | 'contenderIndex'>): string {
  const [prefix, name] = splitId(row.contender.id);
  const model = `<span class="c${row.contenderIndex % 8}">${esc(name)}</span>`;
  return prefix
    ? `<span class="prov">${esc(prefix)}</span>${model}`
    : `${esc(row.contender.provider)} ${model}`;
}

/** A contender's id with the settings that tell it apart, as HTML. */
export function contenderHtml(row: Pick<Standing, 'contender' | 'contenderIndex'>): string {
  return modelHtml(row) + esc(contenderName(row.contender).slice(row.contender.id.length));
}

/**
 * A row's place: its number, or its mark against the best (`= #1` tied, `< #1` worse) with the difference in points
 * and the adjusted p beneath, the 95 % interval in its tooltip. The comparison lives in this cell rather than a
 * column of its own, so a table of every column still fits 1,400 px.
 */
function placeHtml(r: Standing, place: number): string {
  const v = r.vsBest;
  const mark = r.tie ? TIED_MARK : v?.verdict === 'worse' ? WORSE_MARK : String(place);
  const cls = r.tie ? 'num tie' : v?.verdict === 'worse' ? 'num worse' : v ? `num ${v.verdict}` : 'num';
  const title = r.tie
    ? `${tieTooltip(r)}${v ? ` ${versusSentence(v)}.` : ''}`
    : v?.verdict === 'worse'
      ? `Worse than the best (p < 0.05): ${versusSentence(v)}.`
      : v
        ? `${v.verdict === 'better' ? 'Better than the best on its metric (p < 0.05)' : 'Not separated from the best'}: ${versusSentence(v)}.`
        : '';
  const figures = v
    ? `<small class="vs">${esc(formatPoints(v.diff))}</small><small class="vs">${esc(formatP(v.pAdjusted).replaceAll(' ', ''))}</small>`
    : '';
  return `<td class="${cls}" data-v="${place}"${title ? ` title="${esc(title)}"` : ''}>${esc(mark)}${figures}</td>`;
}

function cellHtml(column: ReportColumn, row: Standing): string {
  const value = column.value(row);
  const v = value === null ? '' : ` data-v="${esc(value)}"`;
  const classes = [
    column.align === 'right' ? 'num' : '',
    column.id === 'errors' && row.summary.errors ? 'err' : '',
  ];
  const cls = classes.filter(Boolean).join(' ');
  const text = column.id === 'model' ? modelHtml(row) : esc(column.text(row));
  return `<td${cls ? ` class="${cls}"` : ''}${v}>${text}</td>`;
}

/** One sortable standings table; with `anchors`, each row carries its experiment's anchor for `--scores` links. */
export function standingsHtml(t: StandingsTable, all: readonly ReportColumn[], anchors = false): string {
  // The difference from the best stands in the # cell (placeHtml).
  const columns = all.filter((c) => c.id !== 'vs_best');
  const head = [
    '<th class="num">#</th>',
    // A long header (`hallucinated_rate`) may break after its underscores, so a wide table still fits the page.
    ...columns.map(
      (c) => `<th${c.align === 'right' ? ' class="num"' : ''}>${esc(c.id).replaceAll('_', '_<wbr>')}</th>`,
    ),
  ];
  const rows = t.rows.map((r, i) => {
    const cls = [r === t.best ? 'best' : '', r === t.bestValue ? 'value' : ''].filter(Boolean).join(' ');
    const id = anchors && r.experimentIds[0] ? ` id="${esc(experimentAnchor(r.experimentIds[0]))}"` : '';
    const cells = [placeHtml(r, i + 1), ...columns.map((c) => cellHtml(c, r))];
    return `<tr${id}${cls ? ` class="${cls}"` : ''}>${cells.join('')}</tr>`;
  });
  return `<div class="scroll"><table class="sortable"><thead><tr>${head.join('')}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`;
}

/** A table's best and best value in one sentence. */
export function bestHtml(t: StandingsTable, ranking: string): string {
  const { best, bestValue } = t;
  if (!best || !bestValue) return '<p class="note">No best: every contender had errors or no score.</p>';
  const figure = (r: Standing) =>
    `${esc(formatPercent(r.rank))} ${esc(ranking)} at ${esc(formatCost(r.summary.usage.costUsd))}`;
  const tied = t.tied?.length
    ? ` Tied with it: ${t.tied.map((r) => `<span title="${esc(tieTooltip(r))}">${contenderHtml(r)} ${esc(tieFigures(r))}</span>`).join(', ')}.`
    : '';
  const worseRows = t.rows.filter((r) => r.vsBest?.verdict === 'worse');
  const worse = worseRows.length
    ? ` <span class="worse">Worse than the best (p &lt; 0.05): ${worseRows
        .map((r) => {
          const v = r.vsBest!;
          return `<span title="${esc(versusSentence(v))}">${contenderHtml(r)} ${esc(`${formatPoints(v.diff)} points (95 % ${formatPoints(v.ci95[0])} to ${formatPoints(v.ci95[1])}, ${formatP(v.pAdjusted)})`)}</span>`;
        })
        .join(', ')}.</span>`
    : '';
  if (best === bestValue)
    return `<p>Best and best value: ${contenderHtml(best)}, ${figure(best)}.${tied}${worse}</p>`;
  return `<p>Best: ${contenderHtml(best)}, ${figure(best)}.${tied} Best value: ${contenderHtml(bestValue)}, ${figure(bestValue)}.${worse}</p>`;
}

/** The best-value summary: each dataset's (and the run's) best and cheapest-within-2-points, side by side. */
export function bestSummaryHtml(s: Standings): string {
  const cell = (r: Standing | undefined) =>
    r
      ? `<td>${contenderHtml(r)}</td><td class="num">${esc(formatPercent(r.rank))}</td><td class="num">${esc(formatCost(r.summary.usage.costUsd))}</td>`
      : '<td colspan="3" class="note">none (errors or no score)</td>';
  const rows = [...s.datasets.map((t) => [t.group, t] as const), ['all datasets', s.overall] as const].map(
    ([label, t]) => `<tr><th>${esc(label)}</th>${cell(t.best)}${cell(t.bestValue)}</tr>`,
  );
  const r = esc(s.ranking);
  return (
    `<table><thead><tr><th>dataset</th><th>best</th><th>${r}</th><th>cost</th><th>best value</th><th>${r}</th>` +
    `<th>cost</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`
  );
}

/** The weights: each column's direction (↑ high is good, ↓ low is good) and real share of the wscore. */
export function weightsHtml(weights: Record<string, number>): string {
  const rows = weightShares(weights).map((w) => {
    const arrow =
      direction(w.key, w.weight) === 'low' ? '<span class="down">↓</span>' : '<span class="up">↑</span>';
    return `<tr><td>${esc(w.key)}</td><td class="num">${esc(w.weight)}</td><td>${arrow}</td><td class="num">${esc(formatPercent(w.share))}</td></tr>`;
  });
  return `<table><thead><tr><th>column</th><th>weight</th><th>better</th><th>share</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

/** The glossary as a definition list. */
export function glossaryHtml(columns: readonly ReportColumn[]): string {
  // The TUI's vs_best is the # cell's figures here (placeHtml).
  const entries = columns.map((c) =>
    c.id === 'vs_best'
      ? [
          '#',
          'The place; for another row than the best, its difference from the best in points and the Holm-adjusted p ' +
            'beneath, marked = #1 when tied with it and < #1 when worse (p < 0.05); the 95 % interval in the tooltip. ' +
            c.description,
        ]
      : [c.id, c.description],
  );
  return `<dl class="glossary">${entries.map(([id, d]) => `<dt>${esc(id)}</dt><dd>${esc(d)}</dd>`).join('')}</dl>`;
}
