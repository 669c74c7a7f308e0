import { RUN_STATES } from '../core/run-state.ts';
import { formatCost, formatSeconds } from '../report/format.ts';
import { esc } from '../report/html-escape.ts';
import {
  isCounted,
  type RunBase,
  type RunLine,
  type RunRow,
  type RunsFilter,
  type RunsPage,
} from './model.ts';

/** `/schedule?project=P&name=N`: a schedule's page. */
export function scheduleHref(project: string, name: string): string {
  return `/schedule?project=${encodeURIComponent(project)}&name=${encodeURIComponent(name)}`;
}

/** What every page of the view knows: whether Temporal answered, and the note to show when it did not. */
export interface PageContext {
  /** Shown at the top of every page, e.g. that Temporal is down and only saved snapshots are shown. */
  notice?: string;
  /** What the change just made from this page said (a cancel, its batches), shown once; `problem` in red. */
  said?: readonly { text: string; problem?: boolean }[];
}

/** A page of the view: our stylesheets and script by URL (the CSP allows nothing inline), the body as given. */
export function layout(title: string, body: string, context: PageContext = {}): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)} · llm-evals view</title>`,
    '<link rel="stylesheet" href="/assets/report.css">',
    '<link rel="stylesheet" href="/assets/view.css">',
    '</head>',
    '<body>',
    '<header class="top"><a href="/">llm-evals view</a><a href="/diff">diff</a><a href="/saved">saved snapshots</a></header>',
    // Followed by the script: once Temporal answers again, it says so with a link to every run.
    context.notice
      ? `<p class="banner" data-live-src="/fragment/linked" data-once>${esc(context.notice)}</p>`
      : '',
    ...(context.said ?? []).map((s) => `<p class="banner${s.problem ? ' problem' : ''}">${esc(s.text)}</p>`),
    body,
    '<script src="/assets/sort.js"></script>',
    '<script src="/assets/view.js"></script>',
    '</body>',
    '</html>',
    '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** `N word` with the word in the singular for one: "1 contender", "2 contenders". */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `/runs/ID/case?key=K`: a case's page under a run (or a saved snapshot). */
export function caseHref(base: RunBase, caseKey: string): string {
  return `${base}/case?key=${encodeURIComponent(caseKey)}`;
}

/** `/diff?a=A&b=B`: the diff page of two runs. */
export function diffHref(a: string, b: string): string {
  return `/diff?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}

/** `/runs/ID`: a run's page, its id escaped into the path. */
export function runHref(runId: string): string {
  return `/runs/${encodeURIComponent(runId)}`;
}

/** A progress bar and its count: `<progress>` needs no inline style, which the CSP forbids. */
export function progressHtml(done: number, total: number): string {
  return `<progress value="${done}" max="${Math.max(total, 1)}"></progress> <span class="count">${done}/${total}</span>`;
}

const when = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/** A run's line in the runs list; one not counted yet says so where its counts go (the script fetches them). */
export function rowHtml(r: RunRow | RunLine): string {
  const counted = isCounted(r) ? r : undefined;
  const best = counted?.best
    ? `${esc(counted.best.name)} <span class="note">${esc(counted.best.value)}</span>`
    : '';
  const folder = r.project.split('/').filter(Boolean).pop() ?? r.project;
  const wait = '<td class="note counting">…</td>';
  return (
    `<tr data-run="${esc(r.runId)}" data-state="${esc(r.state)}"${counted ? '' : ' data-counting'}>` +
    `<td><a href="${esc(runHref(r.runId))}">${esc(r.runId)}</a></td>` +
    `<td>${esc(r.suite)}${r.schedule ? ` <a class="note" href="${esc(scheduleHref(r.project, r.schedule))}">schedule ${esc(r.schedule)}</a>` : ''}</td>` +
    `<td title="${esc(r.project)}">${esc(folder)}</td>` +
    `<td class="state state-${esc(r.state)}">${esc(r.state)}</td>` +
    (counted
      ? `<td class="progress" data-v="${counted.total ? counted.done / counted.total : 0}">${progressHtml(counted.done, counted.total)}</td>` +
        `<td class="num${counted.errors ? ' err' : ''}" data-v="${counted.errors}">${counted.errors}</td>` +
        `<td>${best}</td>` +
        `<td class="num" data-v="${counted.costUsd ?? ''}">${esc(formatCost(counted.costUsd))}</td>`
      : wait.repeat(4)) +
    `<td class="num" data-v="${r.duration}">${esc(formatSeconds(r.duration))}</td>` +
    `<td data-v="${esc(r.startedAt)}">${esc(when(r.startedAt))}</td></tr>`
  );
}

/** The runs list's rows; the script fetches them again every second while one of them is running or paused. */
export function runsRowsHtml(page: RunsPage): string {
  if (page.rows.length === 0) return '<tr><td colspan="10" class="note">no runs match</td></tr>';
  return page.rows.map(rowHtml).join('\n');
}

/** Whether a list of runs has one whose line can still change. */
export function anyLive(rows: readonly Pick<RunRow, 'state'>[]): boolean {
  return rows.some((r) => r.state === 'running' || r.state === 'paused');
}

/** The query string of a runs filter, for links and the script's refresh. */
export function filterQuery(filter: RunsFilter): string {
  const q = new URLSearchParams();
  if (filter.project) q.set('project', filter.project);
  if (filter.suite) q.set('suite', filter.suite);
  if (filter.schedule) q.set('schedule', filter.schedule);
  if (filter.state) q.set('state', filter.state);
  if (filter.page) q.set('page', String(filter.page));
  const text = q.toString();
  return text ? `?${text}` : '';
}

function filterForm(page: RunsPage, filter: RunsFilter): string {
  const option = (value: string, label: string, chosen: string | undefined) =>
    `<option value="${esc(value)}"${value === (chosen ?? '') ? ' selected' : ''}>${esc(label)}</option>`;
  // A value in the URL that no listing showed yet (a new project) stays chosen.
  const values = (known: readonly string[], chosen: string | undefined) =>
    [...new Set([...known, ...(chosen ? [chosen] : [])])].sort();
  const select = (
    name: string,
    all: string,
    options: readonly { value: string; label: string }[],
    chosen?: string,
  ) =>
    `<label>${name} <select name="${name}">${option('', all, chosen)}` +
    options.map((o) => option(o.value, o.label, chosen)).join('') +
    '</select></label> ';
  const plain = (known: readonly string[], chosen: string | undefined) =>
    values(known, chosen).map((v) => ({ value: v, label: v }));
  const schedules = new Map(page.facets.schedules.map((s) => [s.id, s.name]));
  if (filter.schedule && !schedules.has(filter.schedule)) schedules.set(filter.schedule, filter.schedule);
  return (
    '<form class="filter" method="get" action="/">' +
    select('project', 'all projects', plain(page.facets.projects, filter.project), filter.project) +
    select('suite', 'all suites', plain(page.facets.suites, filter.suite), filter.suite) +
    select(
      'schedule',
      'any schedule',
      [...schedules].map(([value, label]) => ({ value, label })),
      filter.schedule,
    ) +
    select(
      'state',
      'any state',
      RUN_STATES.map((s) => ({ value: s, label: s })),
      filter.state,
    ) +
    '<button type="submit">filter</button></form>'
  );
}

function pager(page: RunsPage, filter: RunsFilter): string {
  const link = (n: number, label: string) =>
    `<a href="/${esc(filterQuery({ ...filter, page: n }))}">${label}</a>`;
  return (
    `<p class="pager">page ${filter.page + 1} ` +
    (filter.page > 0 ? link(filter.page - 1, '← newer') : '') +
    (page.more ? ` ${link(filter.page + 1, 'older →')}` : '') +
    '</p>'
  );
}

/** The runs list: every run of the Temporal server, newest first, filtered; live while one is going. */
export function runsPage(page: RunsPage, filter: RunsFilter, context: PageContext = {}): string {
  const headers = [
    'run',
    'suite',
    'project',
    'state',
    'progress',
    'errors',
    'best',
    'cost',
    'duration',
    'started (UTC)',
  ];
  const right = new Set(['errors', 'cost', 'duration']);
  const head = headers.map((h) => `<th${right.has(h) ? ' class="num"' : ''}>${esc(h)}</th>`).join('');
  // The newest page follows new runs and running ones; an older page only until its runs are counted and closed.
  const once = filter.page > 0;
  const counting = page.rows.some((r) => !isCounted(r));
  const live = !once || counting || anyLive(page.rows);
  const liveAttributes = live
    ? ` data-live-src="/fragment/runs${esc(filterQuery(filter))}"${counting ? ' data-now' : ''}${once ? ' data-once' : ''}`
    : '';
  const body =
    '<h1>Runs</h1>\n' +
    filterForm(page, filter) +
    '\n' +
    pager(page, filter) +
    `\n<div class="scroll"><table id="runs" class="sortable"><thead><tr>${head}</tr></thead>` +
    `<tbody${liveAttributes}>\n${runsRowsHtml(page)}\n</tbody></table></div>`;
  return layout('Runs', body, context);
}

/** The saved snapshots of the current project: each opens read-only, also while Temporal is down. */
export function savedPage(
  dir: string | undefined,
  files: readonly { file: string; bytes: number; modifiedAt: string }[],
  context: PageContext = {},
): string {
  const rows = files.map(
    (f) =>
      `<tr><td><a href="/saved/${esc(encodeURIComponent(f.file))}">${esc(f.file)}</a></td>` +
      `<td class="num">${esc(Math.ceil(f.bytes / 1024))} KB</td><td>${esc(when(f.modifiedAt))}</td></tr>`,
  );
  const body =
    '<h1>Saved snapshots</h1>\n' +
    `<p class="note">Read-only, from ${esc(dir ?? 'no project here')}.</p>\n` +
    (rows.length
      ? `<table><thead><tr><th>file</th><th class="num">size</th><th>saved (UTC)</th></tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`
      : '<p class="note">none</p>');
  return layout('Saved snapshots', body, context);
}
