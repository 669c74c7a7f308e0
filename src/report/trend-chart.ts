import { meanSkippingNull } from '../core/aggregate.ts';
import { withoutRepeat } from '../core/matrix.ts';
import type { Trend } from '../core/run-change.ts';
import { tInterval } from '../core/stats.ts';
import { contenderName } from './columns.ts';
import { formatPercent } from './format.ts';
import { esc } from './html-escape.ts';
import { centreWithin, spacedLabels, svgTextWidth } from './svg-text.ts';

/** The trend picture's size, and the larger one it takes past a dozen series, so a crowd's lines stay apart. */
const SIZE = { width: 640, height: 300 };
const LARGE = { width: 960, height: 440 };
const MARGIN = { top: 16, right: 40, bottom: 44, left: 68 };
const px = (v: number) => v.toFixed(1);

/** One line of the picture: a contender's score on a dataset per run, `null` where it has none. */
interface Series {
  contender: string;
  dataset: string;
  points: (number | null)[];
  /** Each point's 95 % interval, `null` where the run has none. */
  intervals: ([number, number] | null)[];
}

/** The dash of a series' line: solid first, then patterns a reader tells apart at a glance. */
const DASHES = ['', '7 4', '2 3', '10 3 2 3', '4 4 1 4', '1 5', '12 5'];

/** The `stroke-dasharray` of the `k`-th dash; past the list, ever longer dashes, so no two are alike. */
export function trendDash(k: number): string {
  return DASHES[k] ?? `${k * 2} 3 1 3`;
}

/**
 * Each run's x label: the shortest of `MM-DD`, `MM-DD HH:MM` and `MM-DD HH:MM:SS` that no other run shares, with the
 * run's number after a label still shared (two runs in one second).
 */
export function runLabels(runs: readonly { at: string }[]): string[] {
  const formats = [5 + 5, 5 + 11, 5 + 14].map((end) => (at: string) => at.slice(5, end).replace('T', ' '));
  const all = formats.map((format) => runs.map((r) => format(r.at)));
  return runs.map((_, i) => {
    const unique = all.find((labels) => labels.filter((l) => l === labels[i]).length === 1);
    return unique ? unique[i]! : `${all.at(-1)![i]!} #${i + 1}`;
  });
}

/** Half the width, in px, of a whisker's caps. */
const WHISKER_CAP = 3;
/** How far apart, in px, the whiskers of series at one run are set; all of them within ±this of the run's x. */
const WHISKER_STEP = 3;

/** How far apart, in px, series drawn at one value are set, so a line at 100 % never hides another there. */
const APART = 3;

/**
 * A trend's series, one per contender and dataset; with --repeat a contender's repeats are one: their mean per run.
 * A point's interval is the run's own (over its cases), else, from repeats alone, the t-interval of their scores.
 */
function trendSeries(trend: Trend): { bases: Trend['contenders']; series: Series[] } {
  const baseOf = new Map(trend.contenders.map((c) => [c.key, c.repeat === undefined ? c : withoutRepeat(c)]));
  const bases = [...new Map([...baseOf.values()].map((c) => [c.key, c])).values()];
  const scores = new Map<string, { contender: string; dataset: string; values: number[][] }>();
  trend.runs.forEach((run, i) => {
    for (const s of run.scores) {
      const contender = baseOf.get(s.contender)?.key ?? s.contender;
      const key = `${contender}\u0000${s.dataset}`;
      const entry = scores.get(key) ?? { contender, dataset: s.dataset, values: [] };
      entry.values[i] ??= [];
      if (s.score !== null) entry.values[i].push(s.score);
      scores.set(key, entry);
    }
  });
  const series = [...scores.values()].map(({ values, ...s }) => ({
    ...s,
    points: Array.from({ length: trend.runs.length }, (_, i) => meanSkippingNull(values[i] ?? [])),
    intervals: trend.runs.map((run, i): [number, number] | null => {
      const own = run.intervals?.find((x) => x.contender === s.contender && x.dataset === s.dataset);
      if (own) return own.ci95;
      // A score is a share: a t-interval of three repeats may reach past 0 or 100 %, which no score can.
      const repeats = tInterval(values[i] ?? []);
      return repeats ? [Math.max(0, repeats.low), Math.min(1, repeats.high)] : null;
    }),
  }));
  return { bases, series };
}

/**
 * Each series' y per run: at each run, the series at one value (to the px) are spread APART px around it, kept
 * within `limits`, so lines at 100 % or 0 % never hide one another; `null` where a series has no score.
 */
function spreadApart(
  series: readonly Series[],
  runs: number,
  toY: (v: number) => number,
  limits: { top: number; bottom: number },
): (number | null)[][] {
  const ys = series.map(() => [] as (number | null)[]);
  for (let i = 0; i < runs; i++) {
    const at = new Map<string, number[]>();
    series.forEach((s, j) => {
      const v = s.points[i];
      if (typeof v === 'number') at.set(px(toY(v)), [...(at.get(px(toY(v))) ?? []), j]);
      else ys[j]![i] = null;
    });
    for (const [y, members] of at) {
      const spread = (members.length - 1) * APART;
      const first = Math.min(Math.max(Number(y) - spread / 2, limits.top), limits.bottom - spread);
      members.forEach((j, k) => (ys[j]![i] = first + k * APART));
    }
  }
  return ys;
}

/**
 * The trend picture: each contender's primary score per dataset over a schedule's last runs, oldest on the left,
 * as inline SVG with no script; a run without a score for a series breaks its line. A contender keeps its colour on
 * every dataset and each dataset has its dash, so no two series look alike; series at one value are drawn a few px
 * apart; a series with no score in any run is named under the key, not in it. A point with a 95 % interval (the
 * run's own over its cases, or its repeats') carries it as a whisker.
 */
export function trendSvg(trend: Trend): string {
  const { bases, series } = trendSeries(trend);
  const names = new Map(bases.map((c) => [c.key, contenderName(c)]));
  const datasetNames = [...new Set(series.map((s) => s.dataset))];
  const datasets = datasetNames.length;
  const order = bases.map((c) => c.key);
  for (const s of series) if (!order.includes(s.contender)) order.push(s.contender);
  const drawn = series.filter((s) => s.points.some((v) => typeof v === 'number'));
  const blank = series.filter((s) => !drawn.includes(s));
  const { width: WIDTH, height: HEIGHT } = drawn.length > 12 ? LARGE : SIZE;
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
  const texts = runLabels(trend.runs).map((text, i) => {
    const width = svgTextWidth(text);
    return { text, width, x: centreWithin(toX(i), width, 2, WIDTH - 2) };
  });
  const shown = spacedLabels(texts);
  const ticks = trend.runs.map(
    (run, i) =>
      `<line class="axis" x1="${px(toX(i))}" x2="${px(toX(i))}" y1="${bottom}" y2="${bottom + 4}"/>` +
      (shown[i]
        ? `<text x="${px(texts[i]!.x)}" y="${bottom + 18}" text-anchor="middle"><title>${esc(run.runId)} (${esc(run.state)})</title>` +
          `${esc(texts[i]!.text)}</text>`
        : ''),
  );
  const perColour = Math.ceil(order.length / 8);
  const style = (s: { contender: string; dataset: string }) => {
    const c = Math.max(0, order.indexOf(s.contender));
    // (colour, dash) is one pair per series: a ninth contender takes the first colour with the next dash.
    return {
      colour: `c${c % 8}`,
      dash: trendDash(datasetNames.indexOf(s.dataset) * perColour + Math.floor(c / 8)),
    };
  };
  const labelOf = (s: { contender: string; dataset: string }) =>
    `${names.get(s.contender) ?? s.contender}${datasets > 1 ? ` on ${s.dataset}` : ''}`;
  const ys = spreadApart(drawn, n, toY, { top: MARGIN.top - 6, bottom: bottom + 6 });
  // Whiskers at one run step WHISKER_STEP px aside from one another (within a dot's radius), so overlapping
  // intervals of two series stay two lines.
  const dodge = drawn.map(() => [] as number[]);
  for (let i = 0; i < n; i++) {
    const at = drawn.flatMap((s, j) => (typeof s.points[i] === 'number' && s.intervals[i] ? [j] : []));
    const step = Math.min(WHISKER_STEP, (2 * WHISKER_STEP) / Math.max(1, at.length - 1));
    at.forEach((j, k) => (dodge[j]![i] = (k - (at.length - 1) / 2) * step));
  }
  // A point's 95 % interval as a whisker with caps, moved as far as its point was set apart, kept within the plot.
  const whisker = (x: number, shift: number, [low, high]: [number, number]) => {
    const clamp = (y: number) => Math.min(bottom, Math.max(MARGIN.top, y));
    const [top, foot] = [clamp(toY(high) + shift), clamp(toY(low) + shift)];
    const cap = (y: number) => `M${px(x - WHISKER_CAP)} ${px(y)}H${px(x + WHISKER_CAP)}`;
    return `<path class="whisker" d="M${px(x)} ${px(top)}V${px(foot)}${cap(top)}${cap(foot)}"/>`;
  };
  const lines = drawn.map((s, j) => {
    const label = labelOf(s);
    const { colour, dash } = style(s);
    let d = '';
    let pen = false;
    const dots: string[] = [];
    const whiskers: string[] = [];
    for (let i = 0; i < n; i++) {
      const v = s.points[i];
      const y = ys[j]![i];
      if (typeof v !== 'number' || y === null || y === undefined) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${px(toX(i))} ${px(y)}`;
      pen = true;
      const interval = s.intervals[i];
      if (interval) whiskers.push(whisker(toX(i) + (dodge[j]![i] ?? 0), y - toY(v), interval));
      const within = interval
        ? `, 95 % interval ${formatPercent(interval[0])}–${formatPercent(interval[1])}`
        : '';
      dots.push(
        `<circle class="dot" r="4" cx="${px(toX(i))}" cy="${px(y)}"><title>${esc(`${label}: ${formatPercent(v)}${within} in ${trend.runs[i]!.runId}`)}</title></circle>`,
      );
    }
    const dasharray = dash ? ` stroke-dasharray="${dash}"` : '';
    return (
      `<g class="series ${colour}" data-contender="${esc(s.contender)}" data-dataset="${esc(s.dataset)}" data-dash="${dash}">` +
      `<title>${esc(label)}</title>${whiskers.join('')}<path class="trend-line" d="${d}"${dasharray}/>${dots.join('')}</g>`
    );
  });
  const name = `${trend.primary} over the schedule's last ${n === 1 ? 'run' : `${n} runs`}`;
  const key = drawn.map((s) => {
    const { colour, dash } = style(s);
    const dasharray = dash ? ` stroke-dasharray="${dash}"` : '';
    const swatch =
      `<svg class="swatch" viewBox="0 0 30 10" width="30" height="10" aria-hidden="true">` +
      `<line class="trend-line" x1="1" x2="29" y1="5" y2="5"${dasharray}/></svg>`;
    return `<li><span class="n ${colour}">${swatch}</span> ${esc(labelOf(s))}</li>`;
  });
  const none = blank.length
    ? `<p class="note">No ${esc(trend.primary)} in any of these runs (every case failed, or none ran), so no line: ` +
      `${blank.map((s) => esc(labelOf(s))).join(', ')}.</p>`
    : '';
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
    none,
  ]
    .filter(Boolean)
    .join('\n');
}
