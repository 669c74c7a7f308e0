import { describe, expect, it } from 'vitest';
import {
  clusteredStandardError,
  clusteredTest,
  clusteringOf,
  clusterOf,
  describeClustering,
  designEffect,
} from '../../src/core/cluster-se.ts';

// The fixtures' clustered standard errors were computed apart from this code, with Python 3 (no library), writing the
// paper's formula as its literal double sum: SE² = Σ(sᵢ − s̄)²/((n − 1)n) + (1/n²)·Σ_c Σ_i Σ_{j≠i, same c} rᵢrⱼ.
//
// By hand for the first: s = 1,1,1,0 | 0,0,1 | 1,1 | 0 (clusters a, b, c, and one case alone), n = 10, s̄ = 0.6.
// Residuals: a .4 .4 .4 −.6 (sum .6), b −.6 −.6 .4 (sum −.8), c .4 .4 (sum .8), alone −.6.
// Σr² = 6·.16 + 4·.36 = 2.4; Σ_c (Σr)² = .36 + .64 + .64 + .36 = 2.0; SE² = (2.0 + 2.4/9)/100 = 0.0226667, SE = 0.150555.
const FIRST = {
  values: [1, 1, 1, 0, 0, 0, 1, 1, 1, 0],
  clusters: ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', undefined],
  se: 0.15055453054181622,
  independent: 0.16329931618554522,
};
// Paired differences with a positive pull inside clusters: the clustered SE is the wider.
const SECOND = {
  values: [0.5, 0, 1, -0.5, -1, -1, 0, 0.25, 0.75, 0, 1, -0.25],
  clusters: ['x', 'x', 'x', 'x', 'y', 'y', 'y', 'z', 'z', 'w', 'w', undefined],
  se: 0.2273624743885873,
  mean: 0.0625,
};

describe('clusteredStandardError', () => {
  it.each([
    ['the first fixture', FIRST.values, FIRST.clusters, FIRST.se],
    [
      'the first, every case alone: the usual SE',
      FIRST.values,
      new Array(10).fill(undefined),
      FIRST.independent,
    ],
    ['the second fixture', SECOND.values, SECOND.clusters, SECOND.se],
    ['no spread', [1, 1, 1, 1], ['a', 'a', 'b', 'b'], 0],
  ])('%s', (_, values, clusters, expected) => {
    expect(clusteredStandardError(values, clusters)).toBeCloseTo(expected, 12);
  });

  it('has none for one value', () => {
    expect(clusteredStandardError([1], ['a'])).toBeNaN();
  });

  it('is wider than the independent SE when a cluster moves together', () => {
    const values = [1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0];
    const clusters = ['a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'c', 'd', 'd', 'd'];
    expect(clusteredStandardError(values, clusters)).toBeGreaterThan(
      clusteredStandardError(values, new Array(12).fill(undefined)),
    );
    expect(designEffect(values, clusters)).toBeGreaterThan(1);
  });
});

describe('clusteredTest', () => {
  it('takes t on clusters − 1 degrees of freedom around the clustered SE', () => {
    const test = clusteredTest(SECOND.values, SECOND.clusters);
    // Five clusters (x, y, z, w and the case alone): qt(0.975, 4) = 2.7764451051977987 (R).
    expect(test.df).toBe(4);
    expect(test.mean).toBeCloseTo(SECOND.mean, 12);
    expect(test.ci95[0]).toBeCloseTo(SECOND.mean - 2.7764451051977987 * SECOND.se, 9);
    expect(test.ci95[1]).toBeCloseTo(SECOND.mean + 2.7764451051977987 * SECOND.se, 9);
    // pt(-0.0625 / 0.2273624743885873, 4) · 2 = 0.7971 (R: 2 * pt(-0.27489, 4)).
    expect(test.pValue).toBeCloseTo(0.7971, 3);
  });

  it.each([
    ['all alike, not 0: the sign test over the clusters', [1, 1, 1, 1], ['a', 'a', 'b', 'b'], 0.5],
    ['all 0', [0, 0, 0, 0], ['a', 'a', 'b', 'b'], 1],
    ['one cluster: nothing to test', [1, 0, 1], ['a', 'a', 'a'], 1],
  ])('%s', (_, values, clusters, p) => {
    expect(clusteredTest(values, clusters).pValue).toBe(p);
  });
});

describe('clusterOf and clusteringOf', () => {
  it.each([
    [{ id: 'easy/001', variant: 'easy', metadata: {} }, 'variant:easy'],
    [{ id: 'lonely', variant: 'lonely', metadata: {} }, undefined],
    [{ id: 'easy/001', variant: 'easy', metadata: { cluster: 'doc-3' } }, 'key:doc-3'],
    [{ id: 'lonely', variant: 'lonely', metadata: { cluster: 7 } }, 'key:7'],
    [{ id: 'lonely', variant: 'lonely', metadata: { cluster: true } }, undefined],
  ])('%j is in %s', (c, expected) => {
    expect(clusterOf(c)).toBe(expected);
  });

  it.each([
    [['variant:a', 'variant:a', 'variant:b'], 'clustered by variant (2 clusters)'],
    [['key:1', 'key:1', undefined, undefined], 'clustered by cluster key (3 clusters)'],
    [['key:1', 'key:1', 'variant:b'], 'clustered by cluster key and variant (2 clusters)'],
    [['variant:a', 'variant:a', 'variant:a'], 'cases independent'],
    [[undefined, undefined], 'cases independent'],
    [['variant:a', 'variant:b'], 'cases independent'],
  ])('%j: %s', (clusters, said) => {
    expect(describeClustering(clusteringOf(clusters))).toBe(said);
  });
});
