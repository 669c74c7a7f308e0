import type { Figure, RunChange, Trend } from '../core/run-change.ts';
import { changeCells, changeLabel, flipLines, setChanges } from './change.ts';
import { contenderName } from './columns.ts';
import { formatPercent } from './format.ts';
import { CSP, STYLE } from './html-assets.ts';
import { esc } from './html-escape.ts';

const WIDTH = 640;
const HEIGHT = 300;
const MARGIN = { top: 16, right: 40, bottom: 44, left: 68 };
const px = (v: number) => v.toFixed(1);

const direction = (f: Figure) =>
  f.delta === null || Math.abs(f.delta) < 0.0005 ? '' : f.delta < 0 ? 'drop' : 'rise';

/** The change since another run as an HTML table, with the contenders and cases added, gone or edited (D5, B4). */
export function changeHtml(change: RunChange, regression: readonly string[] = []): string {
  const rows = change.rows.map((r) => {
    const cells = changeCells(r, false);
    const name = changeLabel(change, r.contender) + (cells.presence ? ` (${cells.presence})` : '');
    return (
      `<tr><td>${esc(r.dataset)}</td><td>${esc(name)}</td>` +
      `<td class="${direction(r.score)}">${esc(cells.score)}</td>` +
      `<td class="${direction(r.wscore)}">${esc(cells.wscore)}</td>` +
      `<td class="num">${esc(cells.cost)}</td><td class="num">${esc(cells.latency)}</td>` +
      `<td>${esc(cells.errors)}</td><td${r.paired?.significant ? ' class="sig"' : ''}>${esc(cells.paired)}</td></tr>`
    );
  });
  const sets = setChanges(change);
  const reasons = regression.length
    ? `<div class="banner regressed"><strong>Regressed</strong><ul>${regression.map((r) => `<li>${esc(r)}</li>`).join('')}</ul></div>`
    : '';
  return [
    reasons,
    `<p class="note">From run ${esc(change.before.runId)} (${esc(change.before.createdAt)}) to run ` +
      `${esc(change.after.runId)} (${esc(change.after.createdAt)}): ${esc(change.primary)} and wscore then → now ` +
      '(points), cost and latency now (delta).</p>',
    '<div class="scroll"><table class="change">',
    `<thead><tr><th>dataset</th><th>model</th><th>${esc(change.primary)}</th><th>wscore</th><th>cost (Δ)</th>` +
      '<th>latency (Δ)</th><th>errors</th><th>paired test</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody></table></div>`,
    `<ul>${(sets.length ? sets : ['same contenders and cases']).map((l) => `<li>${esc(l)}</li>`).join('')}</ul>`,
    flipLines(change).length ? `<pre class="flips">${esc(flipLines(change).join('\n'))}</pre>` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/**
 * The trend picture (B5): each contender's primary score per dataset over a schedule's last runs, oldest on the left,
 * as inline SVG with no script; a run without a score for a series breaks its line.
 */
export function trendSvg(trend: Trend): string {
  const series = new Map<string, { contender: string; dataset: string; points: (number | null)[] }>();
  trend.runs.forEach((run, i) => {
    for (const s of run.scores) {
      const key = `${s.contender}\u0000${s.dataset}`;
      const entry = series.get(key) ?? { contender: s.contender, dataset: s.dataset, points: [] };
      entry.points[i] = s.score;
      series.set(key, entry);
    }
  });
  const names = new Map(trend.contenders.map((c) => [c.key, contenderName(c)]));
  const datasets = new Set([...series.values()].map((s) => s.dataset)).size;
  const right = WIDTH - MARGIN.right;
  const bottom = HEIGHT - MARGIN.bottom;
  const n = trend.runs.length;
  const toX = (i: number) =>
    n <= 1 ? (MARGIN.left + right) / 2 : MARGIN.left + (i / (n - 1)) * (right - MARGIN.left);
  const toY = (v: number) => MARGIN.top + (1 - v) * (bottom - MARGIN.top);
  const grid = [0, 0.25, 0.5, 0.75, 1].map(
    (t) =>
      `<line class="grid" x1="${MARGIN.left}" x2="${right}" y1="${px(toY(t))}" y2="${px(toY(t))}"/>` +
      `<text x="${MARGIN.left - 6}" y="${px(toY(t) + 4)}" text-anchor="end">${esc(formatPercent(t))}</text>`,
  );
  const ticks = trend.runs.map(
    (run, i) =>
      `<text x="${px(toX(i))}" y="${bottom + 16}" text-anchor="middle"><title>${esc(run.runId)} (${esc(run.state)})</title>` +
      `${esc(run.at.slice(5, 16).replace('T', ' '))}</text>`,
  );
  const order = [...trend.contenders.map((c) => c.key)];
  const lines = [...series.values()].map((s) => {
    const label = `${names.get(s.contender) ?? s.contender}${datasets > 1 ? ` on ${s.dataset}` : ''}`;
    const colour = `c${Math.max(0, order.indexOf(s.contender)) % 8}`;
    let d = '';
    let pen = false;
    const dots: string[] = [];
    for (let i = 0; i < n; i++) {
      const v = s.points[i];
      if (v === null || v === undefined) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${px(toX(i))} ${px(toY(v))}`;
      pen = true;
      dots.push(
        `<circle class="dot" r="4" cx="${px(toX(i))}" cy="${px(toY(v))}"><title>${esc(`${label}: ${formatPercent(v)} in ${trend.runs[i]!.runId}`)}</title></circle>`,
      );
    }
    return (
      `<g class="series ${colour}" data-contender="${esc(s.contender)}" data-dataset="${esc(s.dataset)}">` +
      `<title>${esc(label)}</title>${d ? `<path class="trend-line" d="${d}"/>` : ''}${dots.join('')}</g>`
    );
  });
  const name = `${trend.primary} over the schedule's last ${n} runs`;
  const key = [...series.values()].map((s) => {
    const colour = `c${Math.max(0, order.indexOf(s.contender)) % 8}`;
    const label = `${names.get(s.contender) ?? s.contender}${datasets > 1 ? ` on ${s.dataset}` : ''}`;
    return `<li><span class="n ${colour}">●</span> ${esc(label)}</li>`;
  });
  return [
    `<svg class="chart trend" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${esc(name)}" data-runs="${n}">`,
    `<title>${esc(name)}</title>`,
    ...grid,
    ...ticks,
    `<line class="axis" x1="${MARGIN.left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>`,
    `<line class="axis" x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${bottom}"/>`,
    `<text class="label" transform="rotate(-90)" x="${px(-(MARGIN.top + bottom) / 2)}" y="14" text-anchor="middle">${esc(trend.primary)}</text>`,
    ...lines,
    '</svg>',
    `<ul class="chart-key">${key.join('')}</ul>`,
  ].join('\n');
}

/** The change between two runs as a standalone HTML page (`diff --format html`): no network, no script. */
export function renderChangePage(change: RunChange): string {
  const title = `llm-evals diff ${change.before.runId} → ${change.after.runId}`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<h1>${esc(title)}</h1>`,
    changeHtml(change),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
