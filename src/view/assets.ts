import { SCRIPT, STYLE } from '../report/html-assets.ts';

/** The view's own styles, on top of the HTML report's. */
const VIEW_STYLE = `
header.top { display: flex; gap: 1.5rem; font-weight: 600; margin-bottom: 1rem; }
form.filter { margin: .5rem 0; } form.filter label { margin-right: 1rem; }
.actions { display: flex; gap: .5rem; margin: .5rem 0; } .actions form { display: inline; }
.actions button { font-size: .95rem; padding: .25rem .8rem; cursor: pointer; }
progress { width: 8rem; vertical-align: middle; } .count { font-variant-numeric: tabular-nums; }
.state-running, .state-paused { color: #0550ae; font-weight: 600; } .state-completed { color: #1a7f37; }
.state-cancelled, .state-aborted, .state-failed, .state-regressed { color: #cf222e; }
/* The contenders' replies side by side as far as they fit, the next ones on a row below: none cut off at the edge. */
.side { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(20rem, 100%), 1fr)); gap: 1rem; }
.as-of { margin: .3rem 0; }
.side .io { grid-template-columns: 1fr; } .side .contender { border: 1px solid var(--line); border-radius: 6px;
  padding: .3rem .7rem; }
ul.cases { list-style: none; padding: 0; } ul.cases li { padding: .15rem 0; border-bottom: 1px solid var(--band); }
.banner.saved { background: #ddf4ff; } .banner.problem { background: #ffebe9; color: #82071e; }
th.mark, td.mark { text-align: center; min-width: 2.5rem; } td.mark.ok { color: #1a7f37; } td.mark.err { color: #cf222e; }
`;

/** The view's static files by name: the report's stylesheet and sorting script, and the view's own stylesheet. */
export const ASSETS: Readonly<Record<string, { type: string; body: string }>> = {
  'report.css': { type: 'text/css; charset=utf-8', body: STYLE },
  'view.css': { type: 'text/css; charset=utf-8', body: VIEW_STYLE },
  'sort.js': { type: 'text/javascript; charset=utf-8', body: SCRIPT },
};

/**
 * The Content-Security-Policy of every page: scripts, styles and fetches from this server only, none inline, so a
 * reply that slipped past escaping could neither run nor load anything.
 */
export const VIEW_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
