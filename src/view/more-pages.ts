import type { RunChange } from '../core/run-change.ts';
import { contenderName } from '../report/columns.ts';
import { formatPercent } from '../report/format.ts';
import { changeHtml } from '../report/html-change.ts';
import { esc } from '../report/html-escape.ts';
import type { ScheduleShow } from '../report/schedule-text.ts';
import { layout, runHref, type PageContext } from './pages.ts';

/** `/diff?a=A&b=B`: the diff page of two runs. */
export function diffHref(a: string, b: string): string {
  return `/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

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

/** A schedule's page: when it fires, its last runs with each contender's score, the latest change and why it regressed. */
export function schedulePage(show: ScheduleShow, context: PageContext = {}): string {
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
  ];
  const body = [
    '<p><a href="/">← runs</a></p>',
    `<h1>Schedule ${esc(schedule.name)} <span class="note">${esc(schedule.suite)}</span></h1>`,
    `<p class="meta">${facts.join(' · ')}</p>`,
    `<h2>Runs</h2>\n<p class="note">${esc(show.primary)} per contender and dataset, newest first.</p>`,
    `<div class="scroll"><table><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table></div>`,
    show.change
      ? `<h2>Latest change</h2>\n${changeHtml(show.change, show.regression)}`
      : '<p class="note">No change to show yet: the schedule needs two finished runs.</p>',
  ];
  return layout(`schedule ${schedule.name}`, body.join('\n'), context);
}
