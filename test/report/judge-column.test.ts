import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/core/aggregate.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { renderHtml } from '../../src/report/html.ts';
import { renderLeaderboard } from '../../src/report/leaderboard.ts';
import { snapshotFixture } from './fixture.ts';

const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, ''); // eslint-disable-line no-control-regex

/** The fixture with a judge that cost $0.001 per reply of the first contender and $0.002 per reply of the others. */
function judged(): Snapshot {
  const s = snapshotFixture();
  const first = new Set(s.experiments.filter((e) => e.contender === s.contenders[0]!.key).map((e) => e.id));
  return {
    ...s,
    results: s.results.map((r) => ({
      ...r,
      diagnostics: { ...r.diagnostics, judge_calls: 1, judge_usd: first.has(r.experimentId) ? 0.001 : 0.002 },
    })),
  };
}

describe("the judge's dollars, apart from the contenders'", () => {
  it.each<[string, Record<string, number>[], number | undefined]>([
    ['no judged reply', [{}, {}], undefined],
    ['two judged replies', [{ judge_usd: 0.25 }, { judge_usd: 0.5 }], 0.75],
    ['one judged, one not', [{ judge_usd: 0.25 }, {}], 0.25],
  ])('summarize sums judge_usd: %s', (_what, diagnostics, expected) => {
    const results = snapshotFixture()
      .results.slice(0, 2)
      .map((r, i) => ({ ...r, diagnostics: diagnostics[i]! }));
    expect(summarize(results, []).judgeUsd).toBe(expected);
  });

  it('a judge $ column in the TUI leaderboard, per row, and none without a judge', () => {
    const s = judged();
    const text = stripAnsi(renderLeaderboard(s, { width: 400 }));
    const header = text.split('\n').find((l) => l.includes('cost'))!;
    expect(header).toContain('judge $');
    const perRow = s.results.length / s.experiments.length;
    // Overall: each contender's replies over both datasets.
    const row = text.split('\n').find((l) => l.includes(s.contenders[0]!.id) && l.includes('$'))!;
    expect(row).toContain(`$${(0.001 * perRow).toFixed(4)}`);
    expect(stripAnsi(renderLeaderboard(snapshotFixture(), { width: 400 }))).not.toContain('judge $');
  });

  it('a row none of whose replies went to the judge shows no judge dollars (not ?)', () => {
    const s = judged();
    const dataset = s.experiments[0]!.dataset;
    const byCode = new Set(s.experiments.filter((e) => e.dataset !== dataset).map((e) => e.id));
    const partly = {
      ...s,
      results: s.results.map((r) => (byCode.has(r.experimentId) ? { ...r, diagnostics: {} } : r)),
    };
    const lines = stripAnsi(renderLeaderboard(partly, { width: 400 })).split('\n');
    const header = lines.find((l) => l.includes('judge $'))!;
    const cells = (l: string) => l.split('│').map((c) => c.trim());
    const at = cells(header).indexOf('judge $');
    const rows = lines.filter((l) => l.startsWith('│') && l !== header && l.includes('$'));
    const byDataset = (d: string) => rows.filter((l) => cells(l)[1] === d).map((l) => cells(l)[at] ?? '?');
    const other = s.experiments.find((e) => e.dataset !== dataset)!.dataset;
    expect(byDataset(dataset).every((c) => c.startsWith('$'))).toBe(true);
    expect(byDataset(other).length).toBeGreaterThan(0);
    expect(byDataset(other).every((c) => c === '')).toBe(true);
  });

  it('a judge $ column in the HTML report', () => {
    expect(renderHtml(judged())).toContain('judge $');
    expect(renderHtml(snapshotFixture())).not.toContain('judge $');
  });
});
