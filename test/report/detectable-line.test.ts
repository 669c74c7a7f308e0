import { describe, expect, it } from 'vitest';
import { renderDetectableLine } from '../../src/report/estimate-line.ts';

describe("compare -n's detectable difference", () => {
  // (norm.ppf(0.975) + norm.ppf(0.8)) · sd / √n, in scipy: 0.2215 (n 40, sd 0.5), 0.0700 (400, 0.5), 0.1462 (40, 0.33).
  it.each([
    [40, undefined, 'with 40 cases a difference under ~22 points', 'an assumed spread of 0.5 per case'],
    [400, undefined, 'with 400 cases a difference under ~7 points', 'an assumed spread of 0.5 per case'],
    [
      40,
      { runId: 'r7', spread: 0.33 },
      'with 40 cases a difference under ~15 points',
      "run r7's per-case differences, 0.33",
    ],
    [1, undefined, 'with 1 case a difference under ~140 points', 'assumed'],
  ])('%i cases, previous %j', (cases, previous, start, source) => {
    const line = renderDetectableLine(cases, previous);
    expect(line.startsWith(start)).toBe(true);
    expect(line).toContain('cannot be told from noise (80 % power at α = 0.05, paired; ');
    expect(line).toContain(source);
  });

  it('wraps to the terminal', () => {
    const lines = renderDetectableLine(40, undefined, 60).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(60);
  });

  // Clustered cases tell apart what n / deff independent ones would: 40 cases in 4 variants, deff at most 10 (as 4
  // cases: 0.7004 → ~70 points), or 2.5 as an earlier run measured it (as 16: 0.3502 → ~35 points).
  it.each([
    [
      undefined,
      'with 40 cases a difference under ~70 points',
      'clustered by variant (4 clusters), design effect 10.00, the most it can be (each cluster counted as one case)',
    ],
    [
      { runId: 'r7', spread: 0.5, designEffect: 2.5 },
      'with 40 cases a difference under ~35 points',
      'clustered by variant (4 clusters), design effect 2.50 as run r7 measured it',
    ],
  ])('clustered: %j', (previous, start, clustering) => {
    const line = renderDetectableLine(40, previous, undefined, [
      { dataset: 'd', by: 'variant', clusters: 4 },
    ]);
    expect(line.startsWith(start)).toBe(true);
    expect(line).toContain(clustering);
  });

  it('counts cases independent as they are', () => {
    expect(renderDetectableLine(40, undefined, undefined, [{ dataset: 'd', by: 'none', clusters: 0 }])).toBe(
      renderDetectableLine(40),
    );
  });
});
