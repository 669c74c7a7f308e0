import { createHash } from 'node:crypto';
import { contenderColourCss } from './palette.ts';

/** The report's stylesheet, inline so the page needs no network. */
export const STYLE = `
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --band: #f6f8fa; --best: #dafbe1; --value: #fff8c5;
  --prov: #0550ae; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); }
body { margin: 0 auto; max-width: 1600px; padding: 1.5rem 1rem; line-height: 1.45; }
h1 { margin: 0 0 .25rem; font-size: 1.6rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid var(--line); }
h3 { margin: 1.4rem 0 .4rem; } .meta, .note { color: var(--muted); font-size: .9rem; }
nav a { margin-right: 1rem; } .banner { background: var(--value); padding: .5rem .8rem; border-radius: 6px; }
table { border-collapse: collapse; margin: .4rem 0; font-size: .82rem; }
th, td { border: 1px solid var(--line); padding: .25rem .45rem; }
th { background: var(--band); text-align: left; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: "\\00a0\\2195"; color: var(--muted); font-size: .75em; }
table.sortable th[aria-sort="ascending"]::after { content: "\\00a0\\25B2"; color: var(--ink); }
table.sortable th[aria-sort="descending"]::after { content: "\\00a0\\25BC"; color: var(--ink); }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; } td.num.tie { white-space: normal; } td.err, span.err { color: #cf222e; font-weight: 600; }
td.worse, span.worse { color: #cf222e; font-weight: 600; }
td small.vs { display: block; font-size: .7rem; font-weight: 400; } td.num.tied { color: #9a6700; }
table.sortable { font-size: .8rem; }
tr.value td { background: var(--value); } tr.best td { background: var(--best); }
.scroll { overflow-x: auto; } .legend span { padding: 0 .4rem; margin-right: .4rem; border-radius: 4px; }
.legend .b { background: var(--best); } .legend .v { background: var(--value); }
.prov { color: var(--prov); } ${contenderColourCss()}
.up { color: #9a6700; font-weight: 700; } .down { color: #0550ae; font-weight: 700; }
details.case { border: 1px solid var(--line); border-radius: 6px; margin: .4rem 0; padding: .3rem .7rem; }
details.case > summary { cursor: pointer; font-weight: 600; }
.chip { display: inline-block; font-weight: 400; font-size: .8rem; margin-left: .5rem; padding: 0 .4rem;
  border: 1px solid var(--line); border-radius: 1rem; }
.io { display: grid; grid-template-columns: 1fr 1fr; gap: 1rem; }
pre { background: var(--band); padding: .5rem; overflow: auto; max-height: 22rem; white-space: pre-wrap;
  word-break: break-word; font-size: .8rem; margin: .2rem 0; }
.result { border-top: 1px dashed var(--line); padding: .4rem 0; } .result h4 { margin: .3rem 0 0; font-size: .85rem; }
.status-reply_error, .status-error { color: #cf222e; }
ol.timeline { padding-left: 1.2rem; margin: .2rem 0; } li.step { margin: .3rem 0; } .step-head { font-size: .8rem; }
li.step-max_steps .step-head { color: #cf222e; } ul.calls { margin: .1rem 0; padding-left: 1rem; }
.call-matched { color: #1a7f37; } .call-wrong_arguments, .call-invented, .call-missing { color: #cf222e; }
dl.glossary dt { font-weight: 700; margin-top: .4rem; } dl.glossary dd { margin-left: 1.2rem; }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; }
svg.chart { border: 1px solid var(--line); border-radius: 6px; background: #fff; font-size: 11px; max-width: 100%;
  height: auto; }
svg.chart text { fill: var(--muted); } svg.chart .label { fill: var(--ink); font-weight: 600; }
svg.chart .grid { stroke: #eaeef2; } svg.chart .axis { stroke: var(--muted); }
svg.chart .front { fill: none; stroke: var(--muted); stroke-width: 1.5; stroke-dasharray: 5 4; }
svg.chart .dot { fill: currentColor; stroke: #fff; stroke-width: 1.5; }
svg.chart .err .dot { fill: #fff; stroke: currentColor; stroke-width: 2; }
svg.chart .pt text { fill: currentColor; font-weight: 700; } svg.chart .pt text.shared { fill: var(--ink); }
svg.chart .ring-best { fill: none; stroke: #1a7f37; stroke-width: 2.5; }
svg.chart .ring-value { fill: none; stroke: #bf8700; stroke-width: 2.5; stroke-dasharray: 4 3; }
.chart-key { list-style: none; padding: 0; margin: .4rem 0; font-size: .85rem; columns: 2; }
.chart-key .n { display: inline-block; min-width: 1.4rem; font-weight: 700; }
svg.chart .trend-line, .swatch .trend-line { fill: none; stroke: currentColor; stroke-width: 2; }
svg.chart .whisker { fill: none; stroke: currentColor; stroke-width: 1.2; opacity: .55; }
.swatch { vertical-align: middle; } .drop { color: #cf222e; }
.rise { color: #1a7f37; } .banner.regressed { background: #ffebe9; }
`;

/** Makes every `table.sortable` sort by a clicked header (again: the other way), by each cell's `data-v`. */
export const SCRIPT = `
(() => {
  const key = (cell) => {
    const v = cell ? cell.getAttribute('data-v') : null;
    if (v === null || v === '') return null;
    const n = Number(v);
    return Number.isNaN(n) ? v.toLowerCase() : n;
  };
  for (const table of document.querySelectorAll('table.sortable')) {
    const heads = Array.from(table.tHead.rows[0].cells);
    heads.forEach((th, col) => {
      th.tabIndex = 0;
      const sort = () => {
        const first = th.classList.contains('num') ? 'descending' : 'ascending';
        const current = th.getAttribute('aria-sort');
        const order = current ? (current === 'ascending' ? 'descending' : 'ascending') : first;
        heads.forEach((h) => h.removeAttribute('aria-sort'));
        th.setAttribute('aria-sort', order);
        const body = table.tBodies[0];
        const rows = Array.from(body.rows);
        rows.sort((a, b) => {
          const x = key(a.cells[col]);
          const y = key(b.cells[col]);
          if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
          const c = x < y ? -1 : x > y ? 1 : 0;
          return order === 'descending' ? -c : c;
        });
        body.append(...rows);
      };
      th.addEventListener('click', sort);
      th.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          sort();
        }
      });
    });
  }
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The page's Content-Security-Policy: nothing from the network, and only our own style and script by hash, so even
 * markup that slipped past escaping could neither run nor load.
 */
export const CSP =
  `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; ` +
  `img-src 'none'; base-uri 'none'; form-action 'none'`;
