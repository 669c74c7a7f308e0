import { reportColumns } from '../report/columns.ts';
import { failuresHtml } from '../report/failures.ts';
import { formatPercent } from '../report/format.ts';
import { changeHtml } from '../report/html-change.ts';
import { esc } from '../report/html-escape.ts';
import { bestHtml, bestSummaryHtml, contenderHtml, standingsHtml } from '../report/html-standings.ts';
import { standings } from '../report/standings.ts';
import { valueChartsHtml } from '../report/value-chart.ts';
import type { RunBase, RunView } from './model.ts';
import {
  caseHref,
  counted,
  diffHref,
  layout,
  progressHtml,
  scheduleHref,
  type PageContext,
} from './pages.ts';

/** Cases listed per page of a run: a run of 20,000 results stays a page the browser draws at once. */
export const CASES_PER_PAGE = 100;

/** What a live run's page drew from: when, and over how many finished cases (summed over its experiments). */
export interface AsOf {
  at: string;
  done: number;
}

/** A live run's page's parts that do not move: as of when, over how many cases, and whether more are done now. */
function asOfHtml(asOf: AsOf, done: number, base: RunBase): string {
  const time = `${asOf.at.slice(11, 19)} UTC`;
  const now =
    done === asOf.done
      ? ''
      : ` ${counted(done - asOf.done, 'more case has', 'more cases have')} finished since: ` +
        `<a href="${esc(base)}">reload</a> to update them.`;
  return (
    `<p class="note as-of">The errors, standings, value picture and cases below are as of ${esc(time)}, ` +
    `over ${esc(counted(asOf.done, 'finished case'))}.${now}</p>`
  );
}

/** The `?at=…&done=…` of a live part's address: what the page below it was drawn from. */
export function asOfQuery(asOf: AsOf): string {
  return `?at=${encodeURIComponent(asOf.at)}&done=${asOf.done}`;
}

/** The run's progress per experiment: the part of the page the script fetches again while the run goes on. */
export function liveHtml(view: RunView, asOf?: AsOf, base: RunBase = ''): string {
  const { snapshot } = view;
  const contenders = new Map(snapshot.contenders.map((c, i) => [c.key, i]));
  const rows = view.experiments.map((p) => {
    const e = snapshot.experiments.find((x) => x.id === p.id);
    const index = contenders.get(e?.contender ?? '') ?? 0;
    const who = contenderHtml({ contender: snapshot.contenders[index]!, contenderIndex: index });
    return (
      `<tr data-experiment="${esc(p.id)}"><td>${esc(p.id)}</td><td>${who}</td><td>${esc(e?.dataset)}</td>` +
      `<td class="progress">${progressHtml(p.done, p.total)}</td>` +
      `<td class="num${p.errors ? ' err' : ''}">${p.errors}</td><td>${esc(p.state)}</td></tr>`
    );
  });
  const done = view.experiments.reduce((n, e) => n + e.done, 0);
  const total = view.experiments.reduce((n, e) => n + e.total, 0);
  const source = view.closed ? '' : view.live ? ' · live' : ' · no worker is serving it now';
  return (
    `<p class="run-state" data-state="${esc(view.state)}"><span class="state state-${esc(view.state)}">${esc(view.state)}</span> · ` +
    `${progressHtml(done, total)}${esc(source)}</p>\n` +
    (asOf && !view.closed ? `${asOfHtml(asOf, done, base)}\n` : '') +
    '<table><thead><tr><th>experiment</th><th>contender</th><th>dataset</th><th>progress</th>' +
    `<th class="num">errors</th><th>state</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`
  );
}

/** The buttons that change a run: each a POST with the page's CSRF token, confirmed by the script. */
function actionsHtml(view: RunView, base: RunBase, csrf: string): string {
  if (view.saved || view.closed) return '';
  const button = (action: string, label: string, confirm: string) =>
    `<form method="post" action="${esc(base)}/${action}" data-confirm="${esc(confirm)}">` +
    `<input type="hidden" name="csrf" value="${esc(csrf)}"><button type="submit" name="do" value="${action}">${label}</button></form>`;
  const runId = view.snapshot.runId;
  return (
    '<div class="actions">' +
    (view.state === 'paused'
      ? button('continue', 'continue', `Go on with run ${runId}?`) +
        button('stop', 'stop', `Stop run ${runId} and keep what finished?`)
      : '') +
    button('cancel', 'cancel run', `Cancel run ${runId}? No call starts from then on.`) +
    '</div>'
  );
}

function casesListHtml(view: RunView, base: RunBase, page: number): string {
  const { snapshot } = view;
  const keys = [...new Set(snapshot.experiments.flatMap((e) => e.caseKeys))];
  const pages = Math.max(1, Math.ceil(keys.length / CASES_PER_PAGE));
  const shown = keys.slice(page * CASES_PER_PAGE, (page + 1) * CASES_PER_PAGE);
  const wanted = new Set(shown);
  const scores = new Map<string, Map<string, number | null>>();
  for (const r of snapshot.results) {
    if (!wanted.has(r.caseKey)) continue;
    const of = scores.get(r.caseKey) ?? new Map<string, number | null>();
    of.set(r.experimentId, r.score);
    scores.set(r.caseKey, of);
  }
  const index = new Map(snapshot.contenders.map((c, i) => [c.key, i]));
  const rows = shown.map((key) => {
    const chips = snapshot.experiments
      .filter((e) => e.caseKeys.includes(key))
      .map((e) => {
        const i = index.get(e.contender) ?? 0;
        const got = scores.get(key);
        const text = got?.has(e.id) ? formatPercent(got.get(e.id)) : 'not run';
        return `<span class="chip">${contenderHtml({ contender: snapshot.contenders[i]!, contenderIndex: i })} ${esc(text)}</span>`;
      });
    return `<li><a href="${esc(caseHref(base, key))}">${esc(key)}</a>${chips.join('')}</li>`;
  });
  const link = (n: number, label: string) => `<a href="${esc(base)}?page=${n}#cases">${label}</a>`;
  return (
    `<p class="pager">${counted(keys.length, 'case')} · page ${page + 1} of ${pages} ` +
    (page > 0 ? link(page - 1, '← previous') : '') +
    (page + 1 < pages ? ` ${link(page + 1, 'next →')}` : '') +
    `</p>\n<ul class="cases">\n${rows.join('\n')}\n</ul>`
  );
}

/** A scheduled run's links: its schedule's page, and the diff with the run before it. */
function scheduleLinks(view: RunView): string {
  const schedule = view.snapshot.schedule;
  if (!schedule || view.saved) return '';
  const previous = schedule.previousRunId
    ? ` · <a href="${esc(diffHref(schedule.previousRunId, view.snapshot.runId))}">diff with the run before</a>`
    : '';
  return `<p>a run of <a href="${esc(scheduleHref(view.snapshot.suite.project, schedule.name))}">schedule ${esc(schedule.name)}</a>${previous}</p>`;
}

/** A run's page: its live progress and actions, the standings as the HTML report draws them, errors, cases. */
export function runPage(
  view: RunView,
  base: RunBase,
  options: { csrf: string; page?: number; context?: PageContext },
): string {
  const { snapshot } = view;
  const s = standings(snapshot);
  const columns = reportColumns(snapshot, true);
  const section = (id: string, title: string, body: string) =>
    `<section id="${id}">\n<h2>${title}</h2>\n${body}\n</section>`;
  const failures = failuresHtml(snapshot, (f) =>
    contenderHtml({ contender: f.base, contenderIndex: f.index }),
  );
  const saved = view.saved
    ? `<p class="banner saved">Saved snapshot ${esc(view.saved)}, read-only: Temporal's live data is not shown.</p>`
    : '';
  // Only the progress follows the run; the rest says what it stands on, and when more has finished since.
  const moving = !view.closed && !view.saved;
  const asOf: AsOf | undefined = moving
    ? { at: new Date().toISOString(), done: view.experiments.reduce((n, e) => n + e.done, 0) }
    : undefined;
  const live = asOf ? ` data-live-src="${esc(`${base}/live${asOfQuery(asOf)}`)}" data-reload` : '';
  const results = moving ? '' : ` · ${esc(counted(snapshot.results.length, 'result'))}`;
  const body = [
    `<p><a href="/">← runs</a></p>`,
    `<h1>${esc(snapshot.suite.name)} <span class="note">run ${esc(snapshot.runId)}</span></h1>`,
    saved,
    scheduleLinks(view),
    `<p class="meta">started ${esc(snapshot.createdAt)} · ${esc(counted(snapshot.contenders.length, 'contender'))}${results} · ranked by ${esc(s.ranking)}</p>`,
    actionsHtml(view, base, options.csrf),
    section('progress', 'Progress', `<div id="live"${live}>\n${liveHtml(view, asOf, base)}\n</div>`),
    failures ? section('errors', 'Errors by contender', failures) : '',
    snapshot.change
      ? section('change', 'Change since the previous run', changeHtml(snapshot.change, snapshot.regression))
      : '',
    section('best', 'Best value', bestSummaryHtml(s)),
    section(
      'overall',
      'Global standings',
      `${standingsHtml(s.overall, columns)}\n${bestHtml(s.overall, s.ranking)}`,
    ),
    section(
      'datasets',
      'Standings by dataset',
      s.datasets
        .map((t) => `<h3>${esc(t.group)}</h3>\n${standingsHtml(t, columns)}\n${bestHtml(t, s.ranking)}`)
        .join('\n'),
    ),
    section('value', 'Value picture', valueChartsHtml(snapshot, s)),
    section('cases', 'Cases', casesListHtml(view, base, options.page ?? 0)),
  ];
  const title = `${snapshot.suite.name} · ${snapshot.runId}`;
  return layout(title, body.filter(Boolean).join('\n'), options.context);
}
