import { withoutRepeat } from '../core/matrix.ts';
import { paretoFront } from '../core/pareto.ts';
import { contenderName } from './columns.ts';
import { formatCost, formatPercent, formatSeconds } from './format.ts';
import { esc } from './html-escape.ts';
import { centreWithin, placeLabel, spacedLabels, svgTextWidth, type Box } from './svg-text.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { standings, type Standing, type Standings, type StandingsTable } from './standings.ts';

/** What a chart puts across: dollars spent, or the 95th percentile seconds of the calls that worked. */
export type ValueAxis = 'cost' | 'p95';

const WIDTH = 520;
const HEIGHT = 320;
const MARGIN = { left: 62, right: 20, top: 16, bottom: 46 };
/** Room at the left of a log axis for values of 0 (a free local model), which a log scale cannot place. */
const ZERO_LANE = 30;

const AXES: Record<
  ValueAxis,
  { title: string; get: (r: Standing) => number | null; format: (v: number) => string }
> = {
  cost: { title: 'cost (log scale)', get: (r) => r.summary.usage.costUsd, format: formatCost },
  p95: { title: 'p95 latency (log scale)', get: (r) => r.summary.p95, format: formatSeconds },
};

const px = (n: number) => n.toFixed(1);

/** A tick's value with the digits it needs: `$0.0005`, `2ms`, `1.5s` (ticks are 1, 2 and 5 times a power of ten). */
export function preciseTick(axis: ValueAxis, value: number): string {
  const v = Number(value.toPrecision(2));
  if (axis === 'cost') return `$${v}`;
  return v > 0 && v < 1 ? `${Number((v * 1000).toPrecision(2))}ms` : `${v}s`;
}

/** Ticks for a log axis over [low, high]: the powers of ten, with 2 and 5 between them when the span is short. */
export function logTicks(low: number, high: number): number[] {
  const from = Math.floor(Math.log10(low));
  const to = Math.ceil(Math.log10(high));
  const steps = to - from <= 3 ? [1, 2, 5] : [1];
  const ticks: number[] = [];
  for (let e = from; e <= to; e++) {
    for (const s of steps) {
      const t = Number((s * 10 ** e).toPrecision(1));
      if (t >= low && t <= high) ticks.push(t);
    }
  }
  return ticks.length >= 2 ? ticks : [low, high];
}

/**
 * Each contender's label: its id with the effort and temperature that tell it apart, and its provider if needed.
 * With `--repeat` the standings' row (all repeats together) is labelled by its key without the repeat's number.
 */
export function contenderLabels(snapshot: Snapshot): Map<string, string> {
  const baseOf = (c: Snapshot['contenders'][number]) => (c.repeat === undefined ? c : withoutRepeat(c));
  const bases = [...new Map(snapshot.contenders.map((c) => [baseOf(c).key, baseOf(c)])).values()];
  const names = bases.map((c) => contenderName(c));
  const labels = new Map(
    bases.map((c, i) => {
      const twin = names.some((n, j) => j !== i && n === names[i]);
      return [c.key, twin ? `${names[i]} via ${c.provider}` : names[i]!];
    }),
  );
  for (const c of snapshot.contenders) {
    if (c.repeat !== undefined) labels.set(c.key, `${labels.get(baseOf(c).key)!} #${c.repeat}`);
  }
  return labels;
}

/**
 * A spot's number (`3`, or `1=2` for contenders on one spot) beside its dot, where it stays inside the chart and
 * covers no other dot or number.
 */
function numberLabel(group: readonly Plotted[], x: number, y: number, offset: number, taken: Box[]): string {
  const text = group.map((p) => p.n).join('=');
  const bounds = { left: MARGIN.left + 2, top: 2, right: WIDTH - 2, bottom: HEIGHT - MARGIN.bottom };
  const at = placeLabel(text, { x, y }, offset, bounds, taken);
  const anchor = at.anchor === 'start' ? '' : ` text-anchor="${at.anchor}"`;
  // A number that stands for several contenders wears none of their colours.
  const shared = group.length > 1 ? ' class="shared"' : '';
  return `<text x="${px(at.x)}" y="${px(at.y)}"${anchor}${shared}>${esc(text)}</text>`;
}

interface Plotted {
  row: Standing;
  n: number;
  x: number;
  y: number;
}

/** One scatter of a dataset's contenders as inline SVG: the ranking value up, `axis` across, the front dashed. */
export function valueChartSvg(
  table: StandingsTable,
  axis: ValueAxis,
  ranking: string,
  labels: ReadonlyMap<string, string>,
): string {
  const { title, get, format } = AXES[axis];
  const points: Plotted[] = table.rows.flatMap((row, i) => {
    const x = get(row);
    return x === null || row.rank === null ? [] : [{ row, n: i + 1, x, y: row.rank }];
  });
  // With nothing to place, axes would be invented ($0.001–$0.01, 80–100 %): say why there is no chart instead.
  if (points.length === 0) return noChart(table, axis, ranking);
  const positive = points.map((p) => p.x).filter((x) => x > 0);
  const zero = points.some((p) => p.x <= 0);
  const [low, high] = positive.length
    ? [Math.min(...positive) / 1.5, Math.max(...positive) * 1.5]
    : [axis === 'cost' ? 0.001 : 0.1, axis === 'cost' ? 0.01 : 1];
  const left = MARGIN.left + (zero ? ZERO_LANE : 0);
  const right = WIDTH - MARGIN.right;
  const bottom = HEIGHT - MARGIN.bottom;
  const toX = (v: number) =>
    v <= 0
      ? MARGIN.left + ZERO_LANE / 2
      : left + ((Math.log10(v) - Math.log10(low)) / (Math.log10(high) - Math.log10(low))) * (right - left);
  const ys = points.map((p) => p.y);
  const top = Math.max(1, ...ys);
  const floor = Math.max(0, Math.floor((Math.min(top - 0.1, ...ys) - 0.02) * 10) / 10);
  const toY = (v: number) => MARGIN.top + ((top - v) / (top - floor)) * (bottom - MARGIN.top);
  const step = top - floor > 0.5 ? 0.2 : top - floor > 0.25 ? 0.1 : 0.05;
  const yTicks = Array.from(
    { length: Math.floor((top - floor) / step + 1e-9) + 1 },
    (_, k) => floor + k * step,
  );
  const xTicks = logTicks(low, high);

  // Each tick's label kept inside the box, and left out where it would run into the one before.
  const values = [...(zero ? [0] : []), ...xTicks];
  // Ticks the table's format cannot tell apart (`0.00s` twice for a fast local model) get their own digits.
  const plain = values.map((t) => format(t));
  const texts = new Set(plain).size === plain.length ? plain : values.map((t) => preciseTick(axis, t));
  const xLabels = values
    .map((t, i) => ({ x: toX(t), text: texts[i]! }))
    .map((l) => {
      const width = svgTextWidth(l.text);
      return { ...l, width, x: centreWithin(l.x, width, 2, WIDTH - 2) };
    });
  const shown = spacedLabels(xLabels);
  const grid = [
    ...yTicks.map(
      (t) =>
        `<line class="grid" x1="${MARGIN.left}" x2="${right}" y1="${px(toY(t))}" y2="${px(toY(t))}"/>` +
        `<text x="${MARGIN.left - 6}" y="${px(toY(t) + 4)}" text-anchor="end">${esc(formatPercent(t))}</text>`,
    ),
    ...xTicks.map(
      (t) => `<line class="grid" x1="${px(toX(t))}" x2="${px(toX(t))}" y1="${MARGIN.top}" y2="${bottom}"/>`,
    ),
    ...xLabels.flatMap((l, i) =>
      shown[i] ? [`<text x="${px(l.x)}" y="${bottom + 16}" text-anchor="middle">${esc(l.text)}</text>`] : [],
    ),
  ];
  const front = paretoFront(points).map((i) => points[i]!);
  const path = front.length
    ? `M${px(toX(front[0]!.x))} ${px(toY(front[0]!.y))}` +
      front
        .slice(1)
        .map((p) => `H${px(toX(p.x))}V${px(toY(p.y))}`)
        .join('') +
      `H${right}`
    : '';
  const onFront = new Set(front);
  // A ringed point's number sits outside its rings.
  const offset = (group: readonly Plotted[]) =>
    group.some((p) => p.row === table.bestValue) ? 15 : group.some((p) => p.row === table.best) ? 11 : 6;
  const marks = (p: Plotted) =>
    (p.row === table.best
      ? `<circle class="ring-best" r="10" cx="${px(toX(p.x))}" cy="${px(toY(p.y))}"/>`
      : '') +
    (p.row === table.bestValue
      ? `<circle class="ring-value" r="14" cx="${px(toX(p.x))}" cy="${px(toY(p.y))}"/>`
      : '');
  // Contenders on one spot (equal figures) share one label, `1=2`: else a number hides another.
  const spot = (p: Plotted) => `${px(toX(p.x))} ${px(toY(p.y))}`;
  const together = new Map<string, Plotted[]>();
  for (const p of points) together.set(spot(p), [...(together.get(spot(p)) ?? []), p]);
  // Every dot is in the way of a number; each number placed is in the way of the next.
  const taken: Box[] = points.map((p) => {
    const r = p.row === table.bestValue ? 15 : p.row === table.best ? 11 : 5;
    return { left: toX(p.x) - r, right: toX(p.x) + r, top: toY(p.y) - r, bottom: toY(p.y) + r };
  });
  const dots = points.map((p) => {
    const c = p.row.contender;
    const group = together.get(spot(p))!;
    const others = group.filter((o) => o !== p);
    const label = labels.get(c.key) ?? contenderName(c);
    const state = [
      p.row === table.best ? 'best' : '',
      p.row === table.bestValue ? 'best value' : '',
      onFront.has(p) ? 'on the front' : '',
      p.row.summary.errors ? `${p.row.summary.errors} error${p.row.summary.errors === 1 ? '' : 's'}` : '',
      others.length ? `at one point with ${others.map((o) => `#${o.n}`).join(', ')}` : '',
    ].filter(Boolean);
    const tip = `#${p.n} ${label}: ${formatPercent(p.y)} ${ranking}, ${format(p.x)}${state.length ? ` (${state.join(', ')})` : ''}`;
    const classes = ['pt', `c${p.row.contenderIndex % 8}`, p.row.summary.errors ? 'err' : ''].filter(Boolean);
    const data = [
      `data-n="${p.n}"`,
      `data-key="${esc(c.key)}"`,
      `data-id="${esc(c.id)}"`,
      `data-effort="${esc(c.effort)}"`,
      `data-temp="${esc(c.temperature)}"`,
      `data-x="${esc(p.x)}"`,
      `data-y="${esc(p.y)}"`,
      ...(others.length ? [`data-with="${others.map((o) => o.n).join(' ')}"`] : []),
    ].join(' ');
    // The spot's last point carries the label, so it is drawn over every dot it stands for.
    const text = group.at(-1) === p ? numberLabel(group, toX(p.x), toY(p.y), offset(group), taken) : '';
    return (
      `<g class="${classes.join(' ')}" ${data}><title>${esc(tip)}</title>${marks(p)}` +
      `<circle class="dot" r="5" cx="${px(toX(p.x))}" cy="${px(toY(p.y))}"/>${text}</g>`
    );
  });
  const name = `${table.group}: ${ranking} against ${title}`;
  return [
    `<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}" role="img" aria-label="${esc(name)}" data-axis="${axis}" data-ranking="${esc(ranking)}">`,
    `<title>${esc(name)}</title>`,
    ...grid,
    `<line class="axis" x1="${MARGIN.left}" x2="${right}" y1="${bottom}" y2="${bottom}"/>`,
    `<line class="axis" x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${bottom}"/>`,
    `<text class="label" x="${px((left + right) / 2)}" y="${HEIGHT - 8}" text-anchor="middle">${esc(title)}</text>`,
    `<text class="label" transform="rotate(-90)" x="${px(-(MARGIN.top + bottom) / 2)}" y="14" text-anchor="middle">${esc(ranking)}</text>`,
    path ? `<path class="front" d="${path}"/>` : '',
    ...dots,
    '</svg>',
  ]
    .filter(Boolean)
    .join('\n');
}

/** Why a dataset has no chart against `axis`: no contender with a score, no price, or no timed call. */
function noChart(table: StandingsTable, axis: ValueAxis, ranking: string): string {
  const why = !table.rows.some((r) => r.rank !== null)
    ? `Nothing to place against ${AXES[axis].title.replace(' (log scale)', '')}: no contender on ${table.group} has a ${ranking}.`
    : axis === 'cost'
      ? `No costs to place: no reply on ${table.group} has a price (the provider reported none and the lineup sets none).`
      : `No p95 latency to place: no call on ${table.group} was timed (no reply was scored).`;
  return `<p class="note chart-none" data-axis="${axis}">${esc(why)}</p>`;
}

function keyHtml(table: StandingsTable, labels: ReadonlyMap<string, string>): string {
  const items = table.rows.map((row, i) => {
    const marks = [row === table.best ? 'best' : '', row === table.bestValue ? 'best value' : ''].filter(
      Boolean,
    );
    const missing = [
      row.rank === null ? 'no score' : '',
      row.summary.usage.costUsd === null ? 'no cost' : '',
      row.summary.p95 === null ? 'no p95' : '',
    ].filter(Boolean);
    const note = missing.length
      ? ` <span class="note">(not plotted where it has ${missing.join(', ')})</span>`
      : '';
    return (
      `<li><span class="n c${row.contenderIndex % 8}">${i + 1}</span> ${esc(labels.get(row.contender.key))}` +
      `${marks.length ? ` <em>${marks.join(', ')}</em>` : ''}${note}</li>`
    );
  });
  return `<ul class="chart-key">${items.join('')}</ul>`;
}

/**
 * The value picture: per dataset, the ranking value (the primary metric, or wscore with weights) against cost
 * and against p95 latency, both on log scales, the Pareto front dashed, the best ringed in green and the best value
 * in amber. Inline SVG with no script; every label escaped.
 */
export function valueChartsHtml(snapshot: Snapshot, s: Standings = standings(snapshot)): string {
  const labels = contenderLabels(snapshot);
  return s.datasets
    .map(
      (t) =>
        `<div class="value-chart" data-dataset="${esc(t.group)}">\n<h3>${esc(t.group)}</h3>\n<div class="charts">\n` +
        `${valueChartSvg(t, 'cost', s.ranking, labels)}\n${valueChartSvg(t, 'p95', s.ranking, labels)}\n</div>\n` +
        `${keyHtml(t, labels)}\n</div>`,
    )
    .join('\n');
}
