import { describe, expect, it } from 'vitest';
import { contenderKey } from '../../src/core/matrix.ts';
import { esc } from '../../src/report/html-escape.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { standings } from '../../src/report/standings.ts';
import { contenderLabels, logTicks, valueChartsHtml, valueChartSvg } from '../../src/report/value-chart.ts';
import { snapshotFixture } from './fixture.ts';

/** The fixture with its contenders changed by `edit`, keys recomputed so results still find them. */
function withContenders(
  edit: (c: Snapshot['contenders'][number], i: number) => Partial<Snapshot['contenders'][number]>,
) {
  const snapshot = snapshotFixture();
  const keys = new Map<string, string>();
  snapshot.contenders = snapshot.contenders.map((c, i) => {
    const changed = { ...c, ...edit(c, i) };
    const key = contenderKey(changed);
    keys.set(c.key, key);
    return { ...changed, key };
  });
  snapshot.experiments = snapshot.experiments.map((e) => ({ ...e, contender: keys.get(e.contender)! }));
  return snapshot;
}

/** Each point's data attributes, in the order drawn. */
const points = (svg: string) =>
  [
    ...svg.matchAll(
      /<g class="pt[^"]*" data-n="(\d+)" data-key="[^"]*" data-id="([^"]*)"[^>]* data-x="([^"]*)" data-y="([^"]*)"/g,
    ),
  ].map((m) => ({ n: Number(m[1]), id: m[2], x: Number(m[3]), y: Number(m[4]) }));

describe('logTicks', () => {
  it.each<[number, number, number[]]>([
    [0.0003, 0.012, [0.0005, 0.001, 0.002, 0.005, 0.01]],
    [0.3, 3, [0.5, 1, 2]],
    [0.001, 500, [0.001, 0.01, 0.1, 1, 10, 100]],
    // Too short a span for any tick: its ends.
    [1.1, 1.5, [1.1, 1.5]],
  ])('from %f to %f', (low, high, want) => {
    expect(logTicks(low, high)).toEqual(want);
  });
});

describe('contenderLabels', () => {
  it('tells apart contenders that differ only in temperature, or only in provider', () => {
    const snapshot = withContenders((c, i) =>
      i === 0
        ? {}
        : i === 1
          ? { id: 'fake/alpha', effort: 'default', temperature: 0.7 }
          : { id: 'fake/alpha', provider: 'other', temperature: 0.1 },
    );
    expect([...contenderLabels(snapshot).values()]).toEqual([
      'fake/alpha t=0.1 via fake',
      'fake/alpha t=0.7',
      'fake/alpha t=0.1 via other',
    ]);
  });
});

describe('valueChartSvg', () => {
  const snapshot = snapshotFixture();
  const s = standings(snapshot);
  const north = s.datasets[0]!;
  const labels = contenderLabels(snapshot);

  it.each(['cost', 'p95'] as const)('plots every row of the table by %s, numbered by rank', (axis) => {
    const drawn = points(valueChartSvg(north, axis, s.ranking, labels));
    expect(drawn.map((p) => p.n)).toEqual([1, 2, 3]);
    for (const [i, row] of north.rows.entries()) {
      expect(drawn[i]).toEqual({
        n: i + 1,
        id: row.contender.id,
        x: axis === 'cost' ? row.summary.usage.costUsd : row.summary.p95,
        y: row.rank,
      });
    }
  });

  it('draws the front through the best and the best value and rings both', () => {
    const svg = valueChartSvg(north, 'cost', s.ranking, labels);
    expect(svg.match(/<path class="front" d="M[\d. ]+H[\d.]+V[\d.]+H[\d.]+"\/>/)).not.toBeNull();
    expect(svg.match(/ring-best/g)).toHaveLength(1);
    expect(svg.match(/ring-value/g)).toHaveLength(1);
    expect(svg).not.toContain('NaN');
  });

  it('places a free contender in a lane of its own, and leaves out one with no cost', () => {
    const free = snapshotFixture();
    free.results = free.results.map((r) =>
      r.experimentId === '001-north'
        ? { ...r, usage: { ...r.usage, costUsd: 0 } }
        : r.experimentId === '002-north'
          ? { ...r, usage: { ...r.usage, costUsd: null } }
          : r,
    );
    const html = valueChartsHtml(free);
    const svg = html.split('</svg>')[0]!;
    expect(points(svg).map((p) => p.id)).toEqual(['fake/alpha', 'other/gamma']);
    expect(svg).toContain('>$0.0000</text>');
    expect(svg).not.toContain('NaN');
    expect(html).toContain(
      'fake/beta effort=low t=0.1 <span class="note">(not plotted where it has no cost)</span>',
    );
  });

  it('escapes every label a model id reaches', () => {
    const hostile = 'evil/<script>alert("x")</script>';
    const html = valueChartsHtml(withContenders((c, i) => (i === 0 ? { id: hostile } : {})));
    expect(html).not.toContain('<script>');
    expect(html).toContain(`data-id="${esc(hostile)}"`);
    expect(html).toContain(`${esc(hostile)} t=0.1`);
  });
});

describe('a lineup without prices (or without a scored call)', () => {
  const unpriced = () => {
    const s = snapshotFixture();
    const usage = { inputTokens: 10, outputTokens: 5, costUsd: null };
    return { ...s, results: s.results.map((r) => ({ ...r, usage })) };
  };

  it('says there are no costs instead of a chart with invented axes', () => {
    const html = valueChartsHtml(unpriced());
    expect(html).not.toMatch(/<svg[^>]*data-axis="cost"/);
    expect(html).not.toContain('$0.001');
    expect(html).toContain('No costs to place: no reply on north has a price');
    // The latency chart still stands: the calls were timed.
    expect(html).toMatch(/<svg[^>]*data-axis="p95"/);
  });

  it('says there is nothing to place when no contender has a value on either axis', () => {
    const s = unpriced();
    const none = { ...s, results: s.results.map((r) => ({ ...r, latency: null })) };
    const html = valueChartsHtml(none);
    expect(html).not.toContain('<svg');
    expect(html).toContain('No p95 latency to place: no call on north was timed');
  });
});
