import { describe, expect, it } from 'vitest';
import { standings, type StandingsTable } from '../../src/report/standings.ts';
import { snapshotFixture } from './fixture.ts';

const order = (t: StandingsTable) => t.rows.map((r) => `${r.contender.id} ${r.rank?.toFixed(4) ?? '-'}`);
const named = (t: StandingsTable) => [t.best?.contender.id, t.bestValue?.contender.id];

describe('standings without weights: ranked by the primary metric', () => {
  const s = standings(snapshotFixture());

  it('ranks by score', () => expect(s.ranking).toBe('score'));

  it.each<[string, (x: typeof s) => StandingsTable, string[], (string | undefined)[]]>([
    [
      'north: alpha best, gamma the cheapest within 2 points',
      (x) => x.datasets[0]!,
      ['fake/alpha 0.9500', 'other/gamma 0.9350', 'fake/beta 0.9000'],
      ['fake/alpha', 'other/gamma'],
    ],
    [
      // Beta's one scored case is right; its failed call counts 0, as the paired tests count it, not left out.
      'south: beta’s failed call counts 0, so it ranks last and is never best',
      (x) => x.datasets[1]!,
      ['other/gamma 0.9000', 'fake/alpha 0.8000', 'fake/beta 0.5000'],
      ['other/gamma', 'other/gamma'],
    ],
    [
      'across all cases',
      (x) => x.overall,
      ['other/gamma 0.9175', 'fake/alpha 0.8750', 'fake/beta 0.7000'],
      ['other/gamma', 'other/gamma'],
    ],
    [
      'the clear variant across datasets',
      (x) => x.variants[0]!,
      ['fake/beta 0.9500', 'other/gamma 0.9350', 'fake/alpha 0.9000'],
      ['fake/beta', 'other/gamma'],
    ],
  ])('%s', (_, pick, rows, best) => {
    expect(order(pick(s))).toEqual(rows);
    expect(named(pick(s))).toEqual(best);
  });

  it('adds time over datasets and averages each dataset’s p95', () => {
    const alpha = s.overall.rows.find((r) => r.contender.id === 'fake/alpha')!;
    // Alpha's cases run 0–2 s and 10–12 s (north), 20–22 s and 30–32 s (south): 8 s of calls, not the 24 s of each
    // dataset's first start to last end, nor the 32 s of the run's.
    expect(alpha.summary.time).toBe(8);
    expect(alpha.summary.p95).toBe(2);
    expect(alpha.summary.errors).toBe(0);
    expect(alpha.experimentIds).toEqual(['001-north', '004-south']);
  });

  it('has no wscore without weights', () => {
    expect(s.overall.rows.every((r) => r.wscore === undefined)).toBe(true);
  });
});

describe('standings with weights: ranked by wscore within each table', () => {
  it.each<[string, Record<string, number>, string[]]>([
    ['score alone ranks as the primary metric', { score: 1 }, ['other/gamma', 'fake/alpha', 'fake/beta']],
    [
      'weighted errors sink beta: no share and 20 points off',
      { score: 1, errors: -1 },
      ['other/gamma', 'fake/alpha', 'fake/beta'],
    ],
    ['cost alone: cheapest first', { cost: -1 }, ['other/gamma', 'fake/beta', 'fake/alpha']],
    ['latency alone: quickest first', { latency: -1 }, ['other/gamma', 'fake/beta', 'fake/alpha']],
  ])('%s', (_, weights, want) => {
    const s = standings(snapshotFixture(weights));
    expect(s.ranking).toBe('wscore');
    expect(s.overall.rows.map((r) => r.contender.id)).toEqual(want);
    expect(s.overall.rows.every((r) => typeof r.wscore === 'number')).toBe(true);
  });

  it('places cost on a log scale: gamma full marks, alpha none, beta between', () => {
    const rows = standings(snapshotFixture({ cost: -1 })).datasets[0]!.rows;
    const w = Object.fromEntries(rows.map((r) => [r.contender.id, r.wscore]));
    expect(w['other/gamma']).toBe(1);
    expect(w['fake/alpha']).toBe(0);
    expect(w['fake/beta']).toBeCloseTo(Math.log(2) / Math.log(8), 10);
  });

  it('gives no wscore (shown as -) to a contender missing a weighted value, and ranks it last', () => {
    const snapshot = snapshotFixture({ score: 1, cost: -1 });
    // Beta's only south result left is its failed call: no score, no cost.
    snapshot.results = snapshot.results.filter(
      (r) => !(r.experimentId === '005-south' && r.caseKey === 'south/clear'),
    );
    const south = standings(snapshot).datasets[1]!;
    expect(south.rows.map((r) => [r.contender.id, r.wscore === null])).toEqual([
      ['other/gamma', false],
      ['fake/alpha', false],
      ['fake/beta', true],
    ]);
  });
});
