import type { RunChange } from '../core/run-change.ts';
import { contenderName } from '../report/columns.ts';
import { formatPercent } from '../report/format.ts';
import { changeHtml } from '../report/html-change.ts';
import { esc } from '../report/html-escape.ts';
import { trendSvg } from '../report/trend-chart.ts';
import type { ScheduleShow } from '../report/schedule-text.ts';
import type { ScheduleView } from './model.ts';
import { caseHref, diffHref, layout, runHref, type PageContext } from './pages.ts';

/** The diff of two runs, as `llm-evals diff` says it (the HTML report's change section); a form picks the two runs. */
export function diffPage(
  a: string,
  b: string,
  change: RunChange | undefined,
  problem: string | undefined,
  context: PageContext = {},
): string {
  const form =
    '<form class="filter" method="get" action="/diff">' +
    `<label>before <input name="a" value="${esc(a)}" size="28"></label> ` +
    `<label>after <input name="b" value="${esc(b)}" size="28"></label> <button type="submit">diff</button></form>`;
  const body = [
    '<h1>Diff of two runs</h1>',
    form,
    problem ? `<p class="banner">${esc(problem)}</p>` : '',
    change
      ? `<p class="meta"><a href="${esc(runHref(change.before.runId))}">${esc(change.before.runId)}</a> → ` +
        `<a href="${esc(runHref(change.after.runId))}">${esc(change.after.runId)}</a></p>\n${changeHtml(change)}`
      : '',
  ];
  return layout(`diff ${a} → ${b}`, body.filter(Boolean).join('\n'), context);
}

/** How many flipping cases a schedule's page lists; the heading says how many there are. */
const FLIPS_SHOWN = 100;

/** The schedule's trend picture (the report's): each contender's primary score per dataset over its runs, oldest left. */
function trendHtml(show: ScheduleShow): string {
  const runs = show.runs
    .map((r) => ({ runId: r.runId, at: r.startedAt.toISOString(), state: r.state, scores: r.scores }))
    .reverse();
  if (runs.length === 0) return '<p class="note">No run yet.</p>';
  return `<figure class="trend">${trendSvg({ primary: show.primary, contenders: show.contenders, runs })}</figure>`;
}

/** The cases that flip between right and wrong over the schedule's finished runs: one mark per run, oldest first. */
function flipsHtml(view: ScheduleView): string {
  const { flips, flipRuns, show } = view;
  if (flipRuns.length < 2)
    return '<p class="note">No flip to show yet: the schedule needs two finished runs.</p>';
  if (flips.length === 0)
    return `<p class="note">No case flipped over the last ${flipRuns.length} finished runs.</p>`;
  const names = new Map(show.contenders.map((c) => [c.key, contenderName(c)]));
  const newest = flipRuns.at(-1)!;
  const mark = (m: boolean | null) =>
    m === null ? '<td class="mark">–</td>' : `<td class="mark ${m ? 'ok' : 'err'}">${m ? '✓' : '✗'}</td>`;
  const head = flipRuns.map((r) => `<th class="mark" title="${esc(r)}">${esc(r.slice(-4))}</th>`).join('');
  const rows = flips
    .slice(0, FLIPS_SHOWN)
    .map(
      (f) =>
        `<tr data-case="${esc(f.caseKey)}"><td><a href="${esc(caseHref(runHref(newest), f.caseKey))}">${esc(f.caseKey)}</a></td>` +
        `<td>${esc(names.get(f.contender) ?? f.contender)}</td><td>${esc(f.dataset)}</td>` +
        `<td class="num">${f.flips}</td>${f.marks.map(mark).join('')}</tr>`,
    );
  return (
    `<p class="note">${flips.length} ${flips.length === 1 ? 'case' : 'cases'} went from right to wrong or back ` +
    `over the last ${flipRuns.length} finished runs (right: full marks on ${esc(show.primary)}), most flips first` +
    `${flips.length > FLIPS_SHOWN ? `; the first ${FLIPS_SHOWN} listed` : ''}.</p>\n` +
    `<div class="scroll"><table id="flips"><thead><tr><th>case</th><th>contender</th><th>dataset</th>` +
    `<th class="num">flips</th>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`
  );
}

/**
 * A schedule's page: when it fires, its trend, the cases that flip over its runs, its last runs with each contender's
 * score, the latest change and why it regressed.
 */
export function schedulePage(view: ScheduleView, context: PageContext = {}): string {
  const { show } = view;
  const { schedule } = show;
  const columns = show.contenders.map(contenderName);
  const datasets = [...new Set(show.runs.flatMap((r) => r.scores.map((s) => s.dataset)))];
  const head = [
    '<th>run</th><th>state</th><th>started (UTC)</th>',
    ...datasets.flatMap((d) => columns.map((c) => `<th class="num">${esc(c)}<br>${esc(d)}</th>`)),
  ].join('');
  const rows = show.runs.map((r, i) => {
    const cells = datasets.flatMap((d) =>
      show.contenders.map((c) => {
        const score = r.scores.find((s) => s.dataset === d && s.contender === c.key)?.score;
        return `<td class="num">${esc(formatPercent(score))}</td>`;
      }),
    );
    const older = show.runs[i + 1];
    const diff = older ? ` <a class="note" href="${esc(diffHref(older.runId, r.runId))}">diff</a>` : '';
    return (
      `<tr><td><a href="${esc(runHref(r.runId))}">${esc(r.runId)}</a>${diff}</td><td>${esc(r.state)}</td>` +
      `<td>${esc(r.startedAt.toISOString().replace('T', ' ').slice(0, 19))}</td>${cells.join('')}</tr>`
    );
  });
  const facts = [
    esc(schedule.when),
    schedule.paused ? 'paused' : 'active',
    `next ${esc(schedule.nextFires[0]?.toISOString() ?? 'none')}`,
    `${schedule.fired} fired`,
    `workers: ${show.workers.length ? show.workers.map((w) => esc(w.identity)).join(', ') : 'none polling'}`,
    // Fires come on their own: the page says when it was drawn.
    `as of ${esc(new Date().toISOString().slice(11, 19))} UTC`,
  ];
  const body = [
    '<p><a href="/">← runs</a></p>',
    `<h1>Schedule ${esc(schedule.name)} <span class="note">${esc(schedule.suite)}</span></h1>`,
    `<p class="meta">${facts.join(' · ')}</p>`,
    `<h2>Trend</h2>\n${trendHtml(show)}`,
    `<h2>Cases that flip</h2>\n${flipsHtml(view)}`,
    `<h2>Runs</h2>\n<p class="note">${esc(show.primary)} per contender and dataset, newest first.</p>`,
    `<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`,
    show.change
      ? `<h2>Latest change</h2>\n${changeHtml(show.change, show.regression)}`
      : '<p class="note">No change to show yet: the schedule needs two finished runs.</p>',
  ];
  return layout(`schedule ${schedule.name}`, body.join('\n'), context);
}
