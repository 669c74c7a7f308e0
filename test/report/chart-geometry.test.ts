import { describe, expect, it } from 'vitest';
import { renderFailures } from '../../src/report/failures.ts';
import { renderHtml } from '../../src/report/html.ts';
import { runLabels, trendSvg } from '../../src/report/trend-chart.ts';
import { standings } from '../../src/report/standings.ts';
import { svgTextRows, svgTextWidth, type Box } from '../../src/report/svg-text.ts';
import { contenderLabels, valueChartSvg, type ValueAxis } from '../../src/report/value-chart.ts';
import { stripAnsi } from '../../src/report/text-width.ts';
import { crowdSnapshot, crowdTrend } from './crowd.ts';
import { snapshotFixture } from './fixture.ts';

// What a person trips on in a chart, asserted on the SVG itself: a label cut by its box, two numbers on one another,
// two series drawn alike, a key entry with no line, two runs under one label.

const WEIGHTS = { score: 5, hallucinated_rate: -6, invalid_rate: -8, cost: -2, latency: -1, errors: -3 };

const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** Each unrotated `<text>` of an SVG with the box it is drawn in (bold in a point's group or as an axis title). */
function labelBoxes(svg: string): { text: string; box: Box }[] {
  const boxes: { text: string; box: Box }[] = [];
  for (const m of svg.matchAll(/(<g class="pt[^>]*>[^]*?<\/g>)|<text([^>]*)>([^]*?)<\/text>/g)) {
    const inPoint = m[1] !== undefined;
    const found = inPoint ? [...m[1]!.matchAll(/<text([^>]*)>([^]*?)<\/text>/g)] : [m];
    for (const t of found) {
      const attrs = inPoint ? t[1]! : t[2]!;
      if (attrs.includes('transform=')) continue;
      const text = unescape((inPoint ? t[2]! : t[3]!).replace(/<title>[^]*?<\/title>/g, ''));
      const x = Number(/ x="([^"]+)"/.exec(attrs)![1]);
      const y = Number(/ y="([^"]+)"/.exec(attrs)![1]);
      const anchor = / text-anchor="([^"]+)"/.exec(attrs)?.[1] ?? 'start';
      const width = svgTextWidth(text, inPoint || attrs.includes('class="label"'));
      const left = anchor === 'start' ? x : anchor === 'end' ? x - width : x - width / 2;
      const { top, bottom } = svgTextRows(y);
      boxes.push({ text, box: { left, right: left + width, top, bottom } });
    }
  }
  return boxes;
}

const viewBox = (svg: string) => {
  const [, , w, h] = /viewBox="([^"]+)"/.exec(svg)![1]!.split(' ').map(Number);
  return { width: w!, height: h! };
};

function expectInside(svg: string) {
  const { width, height } = viewBox(svg);
  for (const { text, box } of labelBoxes(svg)) {
    expect(box.left, `"${text}" left`).toBeGreaterThanOrEqual(0);
    expect(box.right, `"${text}" right`).toBeLessThanOrEqual(width);
    expect(box.top, `"${text}" top`).toBeGreaterThanOrEqual(0);
    expect(box.bottom, `"${text}" bottom`).toBeLessThanOrEqual(height);
  }
}

const overlaps = (a: Box, b: Box) =>
  Math.min(a.right, b.right) > Math.max(a.left, b.left) &&
  Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);

const crowds = [2, 6, 20].map((n) => crowdSnapshot(n, { weights: WEIGHTS, rude: true, twins: true }));

describe('the value chart', () => {
  const charts = [snapshotFixture(), ...crowds].flatMap((snapshot) => {
    const s = standings(snapshot);
    return s.datasets.flatMap((t) =>
      (['cost', 'p95'] as ValueAxis[]).map((axis) => ({
        name: `${snapshot.contenders.length} contenders, ${t.group}, ${axis}`,
        svg: valueChartSvg(t, axis, s.ranking, contenderLabels(snapshot)),
      })),
    );
  });

  it.each(charts)('keeps every label inside its box: $name', ({ svg }) => expectInside(svg));

  it.each(charts)('sets no number on another: $name', ({ svg }) => {
    const numbers = labelBoxes(svg).filter(({ text }) => /^[\d=]+$/.test(text));
    for (const [i, a] of numbers.entries()) {
      for (const b of numbers.slice(i + 1))
        expect(overlaps(a.box, b.box), `${a.text} on ${b.text}`).toBe(false);
    }
  });

  it('labels no two ticks alike, even for a fast local model (`0.00s` twice)', () => {
    const fast = snapshotFixture();
    fast.results = fast.results.map((r, i) => ({
      ...r,
      latency: r.latency === null ? null : 0.0002 * (1 + (i % 7)),
    }));
    const s = standings(fast);
    for (const axis of ['cost', 'p95'] as const) {
      const svg = valueChartSvg(s.datasets[0]!, axis, s.ranking, contenderLabels(fast));
      const ticks = labelBoxes(svg)
        .map((l) => l.text)
        .filter((t) => /^\$|s$/.test(t));
      expect(ticks.length).toBeGreaterThan(1);
      expect(new Set(ticks).size, ticks.join(' ')).toBe(ticks.length);
    }
  });

  it('marks contenders on one point with one label naming them all', () => {
    const snapshot = crowds[1]!;
    const s = standings(snapshot);
    const svg = valueChartSvg(s.datasets[0]!, 'cost', s.ranking, contenderLabels(snapshot));
    const labels = labelBoxes(svg).map((l) => l.text);
    expect(labels).toContain('1=2');
    expect(labels).not.toContain('1');
    expect(labels).not.toContain('2');
    expect(svg).toMatch(/data-n="1"[^>]* data-with="2"/);
    expect(svg).toContain('at one point with #2');
  });
});

/** Each series of a trend picture: its colour, its dash and its dots. */
const seriesOf = (svg: string) =>
  [
    ...svg.matchAll(
      /<g class="series (c\d)" data-contender="([^"]*)" data-dataset="([^"]*)" data-dash="([^"]*)">([^]*?)<\/g>/g,
    ),
  ].map((m) => ({
    colour: m[1]!,
    contender: unescape(m[2]!),
    dataset: m[3]!,
    dash: m[4]!,
    dots: [...m[5]!.matchAll(/cx="([^"]+)" cy="([^"]+)"/g)].map((d) => `${d[1]},${d[2]}`),
  }));

describe('the trend picture', () => {
  const trends = crowds.map((snapshot, i) => ({
    name: `${snapshot.contenders.length} contenders`,
    snapshot,
    trend: crowdTrend(snapshot, [5, 5, 12][i]),
  }));

  it.each(trends)('draws no two series alike, in colour and dash: $name', ({ trend }) => {
    const styles = seriesOf(trendSvg(trend)).map((s) => `${s.colour} ${s.dash}`);
    expect(styles.length).toBeGreaterThan(1);
    expect(new Set(styles).size).toBe(styles.length);
  });

  it.each(trends)('keeps lines at one value (100 %, 0 %) apart, so each is seen: $name', ({ trend }) => {
    const series = seriesOf(trendSvg(trend));
    const dots = series.flatMap((s) => s.dots);
    expect(new Set(dots).size).toBe(dots.length);
    // The first two contenders (but the last, which is down) are at 100 % on both datasets: no line there hidden.
    const oracles = Math.min(2, trend.contenders.length - 1) * 2;
    expect(series.filter((s) => s.dots.every((d) => Number(d.split(',')[1]) < 22))).toHaveLength(oracles);
  });

  it.each(trends)(
    'keys only the series with a line, and names those with none: $name',
    ({ snapshot, trend }) => {
      const svg = trendSvg(trend);
      const series = seriesOf(svg);
      const key = [...svg.matchAll(/<li>[^]*?<\/li>/g)];
      expect(key).toHaveLength(series.length);
      expect(series.every((s) => s.dots.length > 0)).toBe(true);
      const down = snapshot.contenders.at(-1)!.id;
      expect(key.some((li) => li[0].includes(down))).toBe(false);
      expect(svg).toMatch(new RegExp(`No score in any of these runs[^<]*${down.replace(/[./]/g, '\\$&')}`));
    },
  );

  it.each(trends)(
    'keeps every label inside its box, each run under a label of its own: $name',
    ({ trend }) => {
      const svg = trendSvg(trend).split('</svg>')[0]! + '</svg>';
      expectInside(svg);
      const ticks = labelBoxes(svg)
        .filter((l) => !l.text.endsWith('%'))
        .map((l) => l.text);
      expect(new Set(ticks).size).toBe(ticks.length);
      for (const [i, a] of labelBoxes(svg).entries()) {
        for (const b of labelBoxes(svg).slice(i + 1))
          expect(overlaps(a.box, b.box), `${a.text} on ${b.text}`).toBe(false);
      }
    },
  );

  it('draws a contender’s repeats (--repeat) as one line: their mean in each run', () => {
    const snapshot = crowdSnapshot(3, { repeat: 3 });
    const at = ['2026-12-01T10:00:00.000Z', '2026-12-02T10:00:00.000Z'];
    const svg = trendSvg({
      primary: 'score',
      contenders: snapshot.contenders,
      runs: at.map((when, i) => ({
        runId: `r${i + 1}`,
        at: when,
        state: 'completed',
        scores: snapshot.contenders.flatMap((c) =>
          ['invoices', 'receipts'].map((dataset) => ({
            contender: c.key,
            dataset,
            score: c.repeat === 3 ? null : c.repeat === 1 ? 0.8 : 0.9,
          })),
        ),
      })),
    });
    const series = seriesOf(svg);
    expect(series).toHaveLength(3 * 2);
    expect(svg).not.toMatch(/ #\d/);
    // The repeats' mean, with their t-interval kept within what a score can be.
    expect(svg).toContain('anthropic/claude-sonnet-4.5 on invoices: 85.0%, 95 % interval 21.5%–100.0% in r1');
  });

  it.each<[string, string[], string[]]>([
    ['a day apart: the day', ['2026-11-01T03:00:00Z', '2026-11-08T03:00:00Z'], ['11-01', '11-08']],
    [
      'two in one minute: the seconds where needed',
      ['2026-12-01T10:29:00Z', '2026-12-02T10:29:05Z', '2026-12-02T10:29:41Z'],
      ['12-01', '12-02 10:29:05', '12-02 10:29:41'],
    ],
    ['two in one day', ['2026-12-02T09:00:00Z', '2026-12-02T10:29:00Z'], ['12-02 09:00', '12-02 10:29']],
    [
      'two in one second: the run number',
      ['2026-12-02T10:29:41.100Z', '2026-12-02T10:29:41.900Z'],
      ['12-02 10:29:41 #1', '12-02 10:29:41 #2'],
    ],
  ])('labels runs %s', (_, at, labels) => {
    expect(runLabels(at.map((a) => ({ at: a })))).toEqual(labels);
  });
});

describe('a run with --repeat', () => {
  const snapshot = crowdSnapshot(3, { repeat: 3, rude: true });
  const html = renderHtml(snapshot);

  it('counts contenders, not repeats, in the header', () => {
    expect(html).toContain('3 contenders × 3 repeats × 2 datasets');
  });

  it('names every contender in the value picture’s key', () => {
    const items = [...html.matchAll(/<ul class="chart-key">([^]*?)<\/ul>/g)].flatMap((m) =>
      [...m[1]!.matchAll(/<li><span class="n c\d">(\d+)<\/span> ([^<]*)/g)].map((li) => li[2]!.trim()),
    );
    expect(items).toHaveLength(2 * 3);
    expect(items.filter((label) => label === '')).toEqual([]);
    expect(items.slice(0, 3).sort()).toEqual(
      snapshot.contenders
        .filter((c) => c.repeat === 1)
        .map(
          (c) =>
            c.id +
            (c.effort === 'default' ? '' : ` effort=${c.effort}`) +
            (c.temperature === null ? '' : ` t=${c.temperature}`),
        )
        .sort(),
    );
  });

  it('gives each case one chip per contender, with each repeat’s score', () => {
    const summary =
      /<details class="case" id="case-invoices_2f_clear_2f_001"><summary>([^]*?)<\/summary>/.exec(html)![1]!;
    expect(summary.match(/class="chip"/g)).toHaveLength(3);
    expect(summary).not.toMatch(/ #\d/);
    expect(summary).toMatch(/claude-sonnet-4.5<\/span> [\d.]+% · [\d.]+% · [\d.]+%<\/span>/);
  });

  it('lists a contender’s errors once, over all its repeats', () => {
    const errors = /<section id="errors">([^]*?)<\/section>/.exec(html)![1]!;
    expect(errors.match(/<p>/g)).toHaveLength(1);
    expect(errors).not.toContain('#1');
    expect(errors).toContain('18 of 18 cases failed');
    const text = stripAnsi(renderFailures(snapshot, 200));
    expect(text).toContain('18 of 18 cases failed');
    expect(text).not.toMatch(/#\d/);
  });
});
