import { describe, expect, it } from 'vitest';
import { contenderKey } from '../../src/core/matrix.ts';
import {
  diffRuns,
  digestOf,
  primaryMetric,
  type RunDigest,
  type ScoreRow,
} from '../../src/core/run-change.ts';
import { judgeRegression } from '../../src/core/schedule-verdict.ts';
import { snapshotFixture } from '../report/fixture.ts';

const contender = (id: string) => {
  const base = { provider: 'fake', id, effort: 'default', temperature: null, maxTokens: null };
  return { ...base, key: contenderKey(base), model: id.split('/')[1]!, limits: [] };
};
const A = contender('fake/alpha');
const B = contender('fake/beta');
const C = contender('fake/gamma');

const row = (c: { key: string }, dataset: string, score: number | null, extra: Partial<ScoreRow> = {}) => ({
  contender: c.key,
  dataset,
  score,
  wscore: null,
  cost: 0.01,
  latency: 1,
  errors: 0,
  cases: 2,
  ...extra,
});

const digest = (
  runId: string,
  rows: ScoreRow[],
  cases: Record<string, Record<string, string>>,
  contenders = [A, B],
): RunDigest => ({ runId, createdAt: `${runId}-at`, primary: 'score', contenders, rows, cases });

const CASES = { north: { 'north/a': 'h1', 'north/b': 'h2' } };

describe('the change between two runs (B4, D5)', () => {
  it.each<[string, RunDigest, RunDigest, (c: ReturnType<typeof diffRuns>) => void]>([
    [
      'same runs: every delta is zero, nothing added or gone',
      digest('r1', [row(A, 'north', 0.8)], CASES),
      digest('r2', [row(A, 'north', 0.8)], CASES),
      (c) => {
        expect(c.rows).toEqual([
          expect.objectContaining({ presence: 'both', score: { before: 0.8, after: 0.8, delta: 0 } }),
        ]);
        expect(c.cases).toEqual({ added: [], gone: [], changed: [] });
        expect([c.addedContenders, c.goneContenders]).toEqual([[], []]);
      },
    ],
    [
      'a drop, with cost and latency deltas',
      digest('r1', [row(A, 'north', 0.9, { cost: 0.02, latency: 2 })], CASES),
      digest('r2', [row(A, 'north', 0.6, { cost: 0.01, latency: 3 })], CASES),
      (c) => {
        expect(c.rows[0]!.score.delta).toBeCloseTo(-0.3);
        expect(c.rows[0]!.cost.delta).toBeCloseTo(-0.01);
        expect(c.rows[0]!.latency.delta).toBe(1);
      },
    ],
    [
      'a contender added and one gone, each row kept with its side',
      digest('r1', [row(A, 'north', 0.9), row(B, 'north', 0.5)], CASES, [A, B]),
      digest('r2', [row(A, 'north', 0.9), row(C, 'north', 0.7)], CASES, [A, C]),
      (c) => {
        expect(c.addedContenders).toEqual([C.key]);
        expect(c.goneContenders).toEqual([B.key]);
        expect(c.rows.map((r) => [r.contender, r.presence])).toEqual([
          [A.key, 'both'],
          [C.key, 'added'],
          [B.key, 'gone'],
        ]);
        expect(c.rows[1]!.score).toEqual({ before: null, after: 0.7, delta: null });
        expect(c.contenders.map((x) => x.key)).toEqual([A.key, C.key, B.key]);
      },
    ],
    [
      'cases added, gone and edited (a new hash); an unknown hash is not called edited',
      digest('r1', [row(A, 'north', 1)], { north: { 'north/a': 'h1', 'north/b': 'h2', 'north/c': '' } }),
      digest('r2', [row(A, 'north', 1)], { north: { 'north/a': 'h1x', 'north/c': 'h3', 'north/d': 'h4' } }),
      (c) => expect(c.cases).toEqual({ added: ['north/d'], gone: ['north/b'], changed: ['north/a'] }),
    ],
    [
      'a contender that lost its score',
      digest('r1', [row(A, 'north', 0.9)], CASES),
      digest('r2', [row(A, 'north', null)], CASES),
      (c) => expect(c.rows[0]!.score).toEqual({ before: 0.9, after: null, delta: null }),
    ],
  ])('%s', (_name, before, after, check) => {
    check(diffRuns(before, after));
  });
});

describe('judging a run against its bar (D5)', () => {
  const before = digest('r1', [row(A, 'north', 0.9), row(B, 'north', 0.5)], CASES);
  it.each<[string, ScoreRow[], { maxDrop?: number; minScore?: number }, string[]]>([
    ['no bar: never regressed', [row(A, 'north', 0.1), row(B, 'north', 0.1)], {}, []],
    ['a drop within max drop', [row(A, 'north', 0.86), row(B, 'north', 0.5)], { maxDrop: 5 }, []],
    ['a drop of exactly max drop', [row(A, 'north', 0.85), row(B, 'north', 0.5)], { maxDrop: 5 }, []],
    [
      'a drop past max drop names the contender, dataset and points',
      [row(A, 'north', 0.8), row(B, 'north', 0.55)],
      { maxDrop: 5 },
      ['fake/alpha on north: score 90.0% → 80.0%, down 10.0 points (max drop 5)'],
    ],
    [
      'a score lost counts as a drop',
      [row(A, 'north', null), row(B, 'north', 0.5)],
      { maxDrop: 5 },
      ['fake/alpha on north: score 90.0% → no score'],
    ],
    [
      'under min score, with or without a previous run',
      [row(A, 'north', 0.9), row(B, 'north', 0.5)],
      { minScore: 0.6 },
      ['fake/beta on north: score 50.0%, under the min score 60.0%'],
    ],
  ])('%s', (_name, rows, bar, reasons) => {
    const after = digest('r2', rows, CASES);
    const names = new Map([A, B, C].map((c) => [c.key, c.id]));
    const verdict = judgeRegression(after, diffRuns(before, after), bar, (k) => names.get(k) ?? k);
    expect(verdict.reasons).toEqual(reasons);
    expect(verdict.regressed).toBe(reasons.length > 0);
  });

  it('a new contender is held to min score only', () => {
    const after = digest('r2', [row(A, 'north', 0.9), row(C, 'north', 0.1)], CASES, [A, C]);
    expect(judgeRegression(after, diffRuns(before, after), { maxDrop: 1 }).reasons).toEqual([]);
  });

  it('the first run (no previous) is held to min score only', () => {
    const after = digest('r2', [row(A, 'north', 0.1)], CASES);
    expect(judgeRegression(after, undefined, { maxDrop: 1 }).regressed).toBe(false);
  });
});

describe("a snapshot's digest", () => {
  it.each([
    [[{ name: 'a' }, { name: 'b', primary: true }], 'b'],
    [[{ name: 'a' }, { name: 'b' }], 'a'],
    [[], 'score'],
  ])('primary metric of %j is %s', (metrics, name) => {
    expect(primaryMetric(metrics)).toBe(name);
  });

  it('has one row per experiment, wscores when weighted, and the planned cases per dataset', () => {
    const snapshot = snapshotFixture({ score: 1, cost: -1 });
    const d = digestOf(snapshot);
    expect(d.rows).toHaveLength(snapshot.experiments.length);
    expect(d.rows.every((r) => r.wscore !== null || r.errors > 0)).toBe(true);
    expect(Object.keys(d.cases).sort()).toEqual(['north', 'south']);
    const plain = digestOf(snapshotFixture());
    expect(plain.rows.every((r) => r.wscore === null)).toBe(true);
    expect(plain.rows[0]!.score).not.toBeNull();
  });
});

/** The fixture run with each contender run `times` over (`--repeat`): repeats `#1…`, an experiment and results each. */
function repeated(times: number) {
  const plain = snapshotFixture();
  const contenders = plain.contenders.flatMap((c) =>
    Array.from({ length: times }, (_, i) => ({
      ...c,
      key: `${c.key} #${i + 1}`,
      repeat: i + 1,
      seed: i + 1,
    })),
  );
  const experiments = plain.experiments.flatMap((e) =>
    Array.from({ length: times }, (_, i) => ({
      ...e,
      id: `${e.id}-r${i + 1}`,
      contender: `${e.contender} #${i + 1}`,
    })),
  );
  const results = plain.results.flatMap((r) =>
    Array.from({ length: times }, (_, i) => ({ ...r, experimentId: `${r.experimentId}-r${i + 1}` })),
  );
  return {
    ...plain,
    runId: 'repeated',
    contenders,
    experiments,
    results,
    settings: { ...plain.settings, repeat: times },
  };
}

describe('a --repeat run against a plain one: repeats of one contender are one contender', () => {
  it('digests the repeats into one row per contender and dataset, over all their cases', () => {
    const d = digestOf(repeated(3));
    const plain = digestOf(snapshotFixture());
    expect(d.contenders.map((c) => c.key)).toEqual(plain.contenders.map((c) => c.key));
    expect(d.rows.map((r) => [r.contender, r.dataset, r.cases])).toEqual(
      plain.rows.map((r) => [r.contender, r.dataset, r.cases * 3]),
    );
    d.rows.forEach((r, i) => expect(r.score).toBeCloseTo(plain.rows[i]!.score!, 12));
    // A case's value is the mean of its repeats, as the paired tests within a run take it.
    const rounded = (perCase: typeof d.perCase) =>
      perCase?.map((p) => ({
        ...p,
        values: Object.fromEntries(
          Object.entries(p.values).map(([k, v]) => [k, v === null ? v : v.toFixed(9)]),
        ),
      }));
    expect(rounded(d.perCase)).toEqual(rounded(plain.perCase));
  });

  it('diffs them against the plain run with a paired test per row, nothing added or gone', () => {
    const change = diffRuns(digestOf(snapshotFixture()), digestOf(repeated(3)));
    expect(change.addedContenders).toEqual([]);
    expect(change.goneContenders).toEqual([]);
    expect(change.rows.every((r) => r.presence === 'both' && r.paired !== undefined)).toBe(true);
    expect(change.rows).toHaveLength(6);
  });
});
