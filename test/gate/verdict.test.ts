import { describe, expect, it } from 'vitest';
import { contenderKey } from '../../src/core/matrix.ts';
import { diffRuns, type RunDigest } from '../../src/core/run-change.ts';
import { gateJunit, gateMarkdown } from '../../src/gate/formats.ts';
import { baselineProblem, judgeAgainstBaseline } from '../../src/gate/verdict.ts';

const contender = (id: string) => {
  const base = { provider: 'fake', id, effort: 'default', temperature: null, maxTokens: null };
  return { ...base, key: contenderKey(base), model: id.split('/')[1]!, limits: [] };
};
const A = contender('fake/alpha');
const B = contender('fake/beta');
const label = (key: string) => [A, B].find((c) => c.key === key)?.id ?? key;

/** A digest of pass/fail values per case: `values[contender]` lists 1s and 0s over cases d/0, d/1, … */
function digest(runId: string, values: Record<string, number[]>, extraCases = 0): RunDigest {
  const entries = Object.entries(values);
  const size = Math.max(...entries.map(([, v]) => v.length)) + extraCases;
  const keys = Array.from({ length: size }, (_, i) => `d/${i}`);
  return {
    runId,
    createdAt: `${runId}-at`,
    primary: 'exact',
    contenders: entries.map(([k]) => [A, B].find((c) => c.key === k)!),
    rows: entries.map(([contender, v]) => ({
      contender,
      dataset: 'd',
      score: v.reduce((s, x) => s + x, 0) / v.length,
      wscore: null,
      cost: 0.01,
      latency: 1,
      errors: 0,
      cases: v.length,
    })),
    cases: { d: Object.fromEntries(keys.map((k) => [k, `h-${k}`])) },
    perCase: entries.map(([contender, v]) => ({
      contender,
      dataset: 'd',
      values: Object.fromEntries(v.map((x, i) => [`d/${i}`, x])),
      replies: Object.fromEntries(v.map((x, i) => [`d/${i}`, x ? 'right' : 'wrong'])),
    })),
  };
}

const ones = (n: number) => Array<number>(n).fill(1);
const zeros = (n: number) => Array<number>(n).fill(0);

describe('the gate against a baseline', () => {
  it.each<
    [
      string,
      Record<string, number[]>,
      Record<string, number[]>,
      { minDrop?: number; maxDrop?: number },
      Record<string, string>,
      boolean,
    ]
  >([
    [
      'the same answers: unchanged, passes',
      { [A.key]: ones(40) },
      { [A.key]: ones(40) },
      {},
      { [A.key]: 'unchanged' },
      false,
    ],
    [
      '20 of 40 right cases went wrong: regressed, fails',
      { [A.key]: ones(40) },
      { [A.key]: [...zeros(20), ...ones(20)] },
      {},
      { [A.key]: 'regressed' },
      true,
    ],
    [
      'the same drop, under a --min-drop of 60 points: significant, yet not a regression',
      { [A.key]: ones(40) },
      { [A.key]: [...zeros(20), ...ones(20)] },
      { minDrop: 60 },
      { [A.key]: 'unchanged' },
      false,
    ],
    [
      'two flips of 40: not significant, unchanged; a --max-drop of 5 points fails it all the same',
      { [A.key]: ones(40) },
      { [A.key]: [...zeros(2), ...ones(38)] },
      { maxDrop: 5 },
      { [A.key]: 'unchanged' },
      true,
    ],
    [
      'one better, one worse: each its own verdict, Holm across both',
      { [A.key]: [...zeros(20), ...ones(20)], [B.key]: ones(40) },
      { [A.key]: ones(40), [B.key]: [...zeros(20), ...ones(20)] },
      {},
      { [A.key]: 'improved', [B.key]: 'regressed' },
      true,
    ],
  ])('%s', (_name, before, after, options, verdicts, failed) => {
    const gate = judgeAgainstBaseline(diffRuns(digest('base', before), digest('now', after)), options, label);
    expect(Object.fromEntries(gate.rows.map((r) => [r.contender, r.verdict]))).toEqual(verdicts);
    expect(gate.failed).toBe(failed);
  });

  it('gives the difference in points with its interval, and the adjusted p', () => {
    const gate = judgeAgainstBaseline(
      diffRuns(
        digest('base', { [A.key]: ones(40) }),
        digest('now', { [A.key]: [...zeros(20), ...ones(20)] }),
      ),
    );
    const [row] = gate.rows;
    expect(row).toMatchObject({ before: 1, after: 0.5, diff: -50, n: 40, flippedToWrong: 20 });
    expect(row!.ci95![0]).toBeLessThan(-50);
    expect(row!.ci95![1]).toBeGreaterThan(-50);
    // Exact McNemar: 20 discordant pairs, all one way: 2 × 0.5^20.
    expect(row!.pAdjusted).toBeCloseTo(2 * 0.5 ** 20, 12);
    expect(gate.reasons).toEqual([
      expect.stringMatching(/^fake:fake\/alpha.* on d: worse by 50 points \(p < 0\.0001 after Holm\)$/),
    ]);
  });

  it('counts the cases added since the baseline apart, never compared', () => {
    const gate = judgeAgainstBaseline(
      diffRuns(digest('base', { [A.key]: ones(10) }), digest('now', { [A.key]: ones(10) }, 3)),
    );
    expect(gate.cases.added).toEqual(['d/10', 'd/11', 'd/12']);
    expect(gate.rows[0]!.n).toBe(10);
  });
});

describe("the gate's texts for CI", () => {
  const gate = judgeAgainstBaseline(
    diffRuns(
      digest('base', { [A.key]: ones(40), [B.key]: ones(40) }),
      digest('now', { [A.key]: [...zeros(20), ...ones(20)], [B.key]: ones(40) }, 2),
    ),
    {},
    label,
  );

  it('Markdown: a row per contender, the verdict, the flipped cases folded, what was not compared, the cost', () => {
    const md = gateMarkdown(gate, label, { paidUsd: 0.0123, savedUsd: 0.5 });
    expect(md).toContain('### ❌ llm-evals: 1 regression against base');
    expect(md).toContain('| fake/alpha | d | 100.0% → 50.0% | −50.0 [');
    expect(md).toContain('| ❌ worse by 50 points');
    expect(md).toContain('| fake/beta | d | 100.0% → 100.0% | ±0.0');
    expect(md).toMatch(
      /<details><summary>cases that went from right to wrong<\/summary>\n\n- fake\/alpha on d: 20 \(`d\/0`/,
    );
    expect(md).toContain('Not compared: 2 cases added.');
    expect(md).toContain('This run paid $0.0123; the reply cache saved $0.5000.');
  });

  it('JUnit: a test case per verdict, failed where it regressed, and one per errored case', () => {
    const xml = gateJunit(gate, label, [
      { contender: B.key, dataset: 'd', caseKey: 'd/3', error: 'HTTP 500 <oops>' },
    ]);
    expect(xml).toContain('<testsuites name="llm-evals" tests="3" failures="2">');
    expect(xml).toMatch(
      /<testcase classname="llm-evals.gate" name="fake\/alpha on d"><failure message="worse by 50 points/,
    );
    expect(xml).toContain('<testcase classname="llm-evals.gate" name="fake/beta on d"></testcase>');
    expect(xml).toContain('name="fake/beta d/3"><failure message="HTTP 500 &lt;oops&gt;"/>');
  });
});

describe('the gate on clustered cases', () => {
  // 40 cases in 4 variants of 10; now one variant went wrong whole. Independent, 10 flips of 10 is p ≈ 0.002; as
  // one cluster's worth of evidence (4 clusters, t on 3 degrees of freedom) it is not significant.
  const before = { [A.key]: ones(40) };
  const after = { [A.key]: [...zeros(10), ...ones(30)] };
  const cluster = (i: number) => `variant:v${Math.floor(i / 10)}`;
  const grouped = (d: RunDigest): RunDigest => ({
    ...d,
    clusters: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`d/${i}`, cluster(i)])),
    clustering: [{ dataset: 'd', by: 'variant', clusters: 4 }],
  });

  it('tests on the clustered SE, pass/fail too, and says so', () => {
    const plain = judgeAgainstBaseline(diffRuns(digest('base', before), digest('now', after)), {}, label);
    const gate = judgeAgainstBaseline(
      diffRuns(digest('base', before), grouped(digest('now', after))),
      {},
      label,
    );
    expect(plain.rows[0]!.verdict).toBe('regressed');
    expect(gate.rows[0]!.verdict).toBe('unchanged');
    const [low, high] = gate.rows[0]!.ci95!;
    const [plainLow, plainHigh] = plain.rows[0]!.ci95!;
    expect(high - low).toBeGreaterThan(plainHigh - plainLow);
    // By hand: residuals −.75 (10 cases) and .25 (30); Σ_c (Σr)² = 56.25 + 3·6.25 = 75, Σr² = 7.5,
    // SE = √((75 + 7.5/39) / 1600) = 0.216781; qt(0.975, 3) = 3.182446305284263 (R); in points.
    const half = 3.182446305284263 * Math.sqrt((75 + 7.5 / 39) / 1600) * 100;
    expect(low).toBeCloseTo(-25 - half, 0);
    expect(high).toBeCloseTo(-25 + half, 0);
    expect(gateMarkdown(gate, label)).toContain(
      'Paired tests: clustered by variant (4 clusters) — a t-test on clustered standard errors for every metric, pass/fail too.',
    );
    expect(gateMarkdown(plain, label)).toContain(
      'Paired tests: cases independent — exact McNemar for pass/fail, paired t otherwise.',
    );
  });

  it('a sample says so, with the drop it can detect', () => {
    const gate = judgeAgainstBaseline(
      diffRuns(digest('base', before), digest('now', before)),
      { sample: { share: '4 of 40 cases per dataset', cases: 4, seed: 7 } },
      label,
    );
    // (1.959964 + 0.841621) · 0.5 / √4 = 0.700 → 70 points.
    expect(gateMarkdown(gate, label)).toContain(
      '⚠️ A sample: 4 of 40 cases per dataset (--seed 7); at 80 % power this gate detects a drop of ~70 points or more.',
    );
  });
});

describe('a baseline that cannot judge the run', () => {
  const base = digest('base', { [A.key]: ones(3) });
  it.each([
    ['shares cases and a contender', ['d/0', 'x/9'], [A.key, B.key], undefined],
    ['shares no case', ['x/0'], [A.key], 'shares no case with this run (nothing to compare)'],
    ['shares no contender', ['d/1'], [B.key], 'shares no contender with this run (nothing to compare)'],
    [
      'shares nothing',
      ['x/0'],
      [B.key],
      'shares no case and no contender with this run (nothing to compare)',
    ],
  ])('%s', (_, cases, contenders, problem) => {
    expect(baselineProblem(base, { cases, contenders })).toBe(problem);
  });
});
