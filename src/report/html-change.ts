import { clusteringNote } from './significance.ts';
import type { Figure, RunChange } from '../core/run-change.ts';
import { changeCells, changeLabel, flipLines, setChanges } from './change.ts';
import { CSP, STYLE } from './html-assets.ts';
import { esc } from './html-escape.ts';

const direction = (f: Figure) =>
  f.delta === null || Math.abs(f.delta) < 0.0005 ? '' : f.delta < 0 ? 'drop' : 'rise';

/** The change since another run as an HTML table, with the contenders and cases added, gone or edited. */
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
    change.clustering ? `<p class="note">${esc(clusteringNote(change.clustering))}.</p>` : '',
    flipLines(change).length ? `<pre class="flips">${esc(flipLines(change).join('\n'))}</pre>` : '',
  ]
    .filter(Boolean)
    .join('\n');
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
