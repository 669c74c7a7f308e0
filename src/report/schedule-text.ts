import pc from 'picocolors';
import type { Json } from '../api/types.ts';
import type { CaseFlips } from '../core/consistency.ts';
import type { Contender } from '../core/matrix.ts';
import type { RunChange } from '../core/run-change.ts';
import { formatEvery, type ScheduleView } from '../core/schedule-spec.ts';
import { renderChange, renderRegression } from './change.ts';
import { contenderName } from './columns.ts';
import { formatPercent } from './format.ts';
import { renderTable, type FitOptions } from './table.ts';

/** Everything `schedule show` prints: the schedule, its last runs with scores, the latest change, workers. */
export interface ScheduleShow {
  schedule: ScheduleView;
  primary: string;
  contenders: Contender[];
  runs: {
    runId: string;
    state: string;
    startedAt: Date;
    scores: { contender: string; dataset: string; score: number | null }[];
  }[];
  change?: RunChange;
  regression: string[];
  problems: { workflowId: string; scheduledAt: Date; state: 'planning' | 'failed'; message?: string }[];
  workers: { identity: string; lastSeen?: Date }[];
  /** With `--flaky N`: the cases that flipped most over the last `runs` judged runs (N, or fewer if fewer exist). */
  flaky?: { runs: number; cases: CaseFlips[] };
}

/** How many flipped cases `schedule show --flaky` lists; the line above the table says how many there were. */
const FLIPS_SHOWN = 20;

/** The cases that flipped most over a schedule's last runs, as a table with a line saying how many and over what. */
export function renderFlips(
  flaky: NonNullable<ScheduleShow['flaky']>,
  contenders: readonly Contender[],
  fit: FitOptions = {},
): string {
  const over = `over the last ${flaky.runs} judged run${flaky.runs === 1 ? '' : 's'}`;
  if (flaky.runs < 2) return `flaky cases: none can flip ${over}; it takes two`;
  if (!flaky.cases.length) return `flaky cases: no case flipped between right and wrong ${over}`;
  const names = new Map(contenders.map((c) => [c.key, contenderName(c)]));
  const shown = flaky.cases.slice(0, FLIPS_SHOWN);
  const more = flaky.cases.length - shown.length;
  return [
    `flaky cases: ${flaky.cases.length} flipped between right and wrong ${over}, most flips first` +
      (more ? ` (the first ${shown.length})` : '') +
      ':',
    renderTable(
      [
        { header: 'case', key: true },
        { header: 'contender' },
        { header: 'flips', align: 'right' },
        { header: 'runs', align: 'right' },
        { header: 'last' },
      ],
      shown.map((c) => [
        c.caseKey,
        names.get(c.contender) ?? c.contender,
        String(c.flips),
        String(c.runs),
        c.right ? pc.green('right') : pc.red('wrong'),
      ]),
      fit,
    ),
  ].join('\n');
}

/** How long since a worker polled before `schedule show` warns that none serves the suite. */
export const WORKER_QUIET_MS = 2 * 60_000;

/** How long a polling worker goes between polls at most (Temporal's long poll, a minute, and some slack). */
export const WORKER_POLL_MS = 75_000;

/** A moment relative to now: `in 5s`, `3m ago`, `now`. */
export function relativeTime(at: Date, now: Date): string {
  const ms = at.getTime() - now.getTime();
  if (Math.abs(ms) < 1000) return 'now';
  // The two largest units say enough: `in 2d6h`, not `in 2d6h10m23s`.
  const text = formatEvery(Math.round(Math.abs(ms) / 1000) * 1000)
    .split(/(?<=[wdhms])/)
    .slice(0, 2)
    .join('');
  return ms > 0 ? `in ${text}` : `${text} ago`;
}

/** The compare flags a schedule plans with, as a user would type them. */
export function flagsText(flags: Record<string, Json>): string {
  const names: Record<string, string> = {
    models: '-m',
    dataset: '-d',
    case: '-c',
    effort: '-e',
    temperature: '-t',
    maxTokens: '--max-tokens',
    parallelism: '-p',
    concurrency: '-j',
    tracker: '--tracker',
    local: '--local',
    project: '--project',
  };
  const parts = Object.entries(flags).map(([key, value]) => {
    const flag = names[key] ?? `--${key}`;
    return `${flag} ${Array.isArray(value) ? value.map((v) => JSON.stringify(v)).join(',') : JSON.stringify(value)}`;
  });
  return parts.length ? parts.join(' ') : '(the whole lineup)';
}

function barText(s: ScheduleView): string {
  const parts = [
    s.spec.maxDrop !== undefined ? `max drop ${s.spec.maxDrop} points` : '',
    s.spec.minScore !== undefined ? `min score ${formatPercent(s.spec.minScore)}` : '',
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : 'none (runs never regress)';
}

function stateCell(state: string): string {
  if (state === 'regressed' || state === 'failed' || state === 'aborted') return pc.red(state);
  if (state === 'completed') return pc.green(state);
  return state;
}

/** The workers line: who polled the suite's queue lately, or a warning that nobody did. */
export function workersLine(show: ScheduleShow, now: Date): string {
  const recent = show.workers.filter(
    (w) => w.lastSeen && now.getTime() - w.lastSeen.getTime() < WORKER_QUIET_MS,
  );
  const queue = show.schedule.taskQueue;
  if (!recent.length) {
    return pc.yellow(
      `workers:  none has polled ${queue} in the last ${formatEvery(WORKER_QUIET_MS)}: fires wait, planning, ` +
        `until ${pc.bold('llm-evals worker')} runs in the suite's project`,
    );
  }
  // A live worker polls again within a long poll (a minute): one quiet for longer may have exited, and is not
  // counted as polling, only as seen.
  const live = recent.filter((w) => now.getTime() - w.lastSeen!.getTime() < WORKER_POLL_MS);
  const named = (ws: typeof recent) =>
    ws.map((w) => `${w.identity} (${relativeTime(w.lastSeen!, now)})`).join(', ');
  const quiet = recent.filter((w) => !live.includes(w));
  const gone = quiet.length ? `; ${quiet.length} quiet since, perhaps exited: ${named(quiet)}` : '';
  return `workers:  ${live.length} polling ${queue}${live.length ? `: ${named(live)}` : ''}${gone}`;
}

/** `schedule show NAME` as text: spec, state, bar, next fires, the last runs with their scores, the change, workers. */
export function renderScheduleShow(show: ScheduleShow, now: Date, fit: FitOptions = {}): string {
  const s = show.schedule;
  const state = s.paused ? pc.yellow(`paused${s.note ? ` (${s.note})` : ''}`) : pc.green('active');
  const catchup = formatEvery(s.catchupWindowMs);
  const lines = [
    `schedule ${pc.bold(s.name)} (${s.id})`,
    `suite:    ${s.suite}, queue ${s.taskQueue}`,
    `when:     ${s.when}, overlap ${s.overlap}, catch-up window ${catchup}`,
    `state:    ${state}; fired ${s.fired} time${s.fired === 1 ? '' : 's'}, ${s.skippedOverlap} skipped while a run went on` +
      (s.missedCatchup ? `, ${s.missedCatchup} missed (past the catch-up window)` : ''),
    `plans:    ${flagsText(s.spec.flags)}`,
    `bar:      ${barText(s)}`,
    `next:     ${
      s.paused
        ? '(paused)'
        : s.nextFires
            .slice(0, 3)
            .map((d) => `${d.toISOString()} (${relativeTime(d, now)})`)
            .join(', ') || '-'
    }`,
    workersLine(show, now),
  ];
  for (const p of show.problems) {
    const when = `${p.scheduledAt.toISOString()} (${relativeTime(p.scheduledAt, now)})`;
    lines.push(
      p.state === 'planning'
        ? pc.yellow(`fire of ${when}: waiting for a worker of the suite to plan it`)
        : pc.red(`fire of ${when} failed before its run: ${p.message ?? 'see the Temporal UI'}`),
    );
  }
  const series = [
    ...new Set(show.runs.flatMap((r) => r.scores.map((x) => `${x.contender}\u0000${x.dataset}`))),
  ];
  const datasets = new Set(series.map((k) => k.split('\u0000')[1])).size;
  const names = new Map(show.contenders.map((c) => [c.key, contenderName(c)]));
  const header = series.map((k) => {
    const [contender, dataset] = k.split('\u0000') as [string, string];
    return `${names.get(contender) ?? contender}${datasets > 1 ? ` ${dataset}` : ''}`;
  });
  const rows = show.runs.map((r) => {
    const byKey = new Map(r.scores.map((x) => [`${x.contender}\u0000${x.dataset}`, x.score]));
    return [
      r.runId,
      stateCell(r.state),
      `${r.startedAt.toISOString()} (${relativeTime(r.startedAt, now)})`,
      ...series.map((k) => (byKey.has(k) ? formatPercent(byKey.get(k)) : '')),
    ];
  });
  const table = rows.length
    ? renderTable(
        [
          { header: 'run', key: true },
          { header: 'state' },
          { header: 'started' },
          ...header.map((h) => ({ header: `${show.primary} ${h}`, align: 'right' as const })),
        ],
        rows,
        fit,
      )
    : 'no runs yet';
  return [
    ...lines,
    '',
    `last runs (newest first):`,
    table,
    ...(show.change ? ['', renderChange(show.change, fit)] : []),
    ...(show.regression.length ? [renderRegression(show.regression)] : []),
    ...(show.flaky ? ['', renderFlips(show.flaky, show.contenders, fit)] : []),
  ].join('\n');
}

/** `schedule list` as text: one row per schedule of the project. */
export function renderScheduleList(
  views: readonly Pick<ScheduleView, 'name' | 'when' | 'paused' | 'nextFires' | 'fired'>[],
  now: Date,
  fit: FitOptions = {},
): string {
  if (!views.length)
    return 'no schedules in this project (create one with llm-evals schedule create NAME --every 1w)';
  return renderTable(
    [
      { header: 'schedule', key: true },
      { header: 'when' },
      { header: 'state' },
      { header: 'fired', align: 'right' },
      { header: 'next fire' },
    ],
    views.map((v) => [
      v.name,
      v.when,
      v.paused ? 'paused' : 'active',
      String(v.fired),
      v.paused || !v.nextFires[0]
        ? '-'
        : `${v.nextFires[0].toISOString()} (${relativeTime(v.nextFires[0], now)})`,
    ]),
    fit,
  );
}
