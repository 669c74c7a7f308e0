/**
 * Clustered standard errors (Miller 2024, "Adding Error Bars to Evals", §2.2): cases that share a source — the
 * numbered cases of one variant, or those a `cluster` key in metadata.json groups — do not vary independently, and the
 * usual standard error of a mean understates its noise. Pure, no Node.
 */
import { z } from 'zod';
import { studentTCdf, studentTQuantile } from './stats.ts';

/** What clustering a dataset's statistics used, as every report names it. */
export const ClusteringSchema = z.object({
  /** `cluster` keys in metadata.json, variants, both (a case's key wins over its variant), or none. */
  by: z.enum(['variant', 'cluster key', 'cluster key and variant', 'none']),
  /** Distinct clusters, a case alone counting as one; 0 when `by` is `none`. */
  clusters: z.number(),
});
/** What clustering a dataset's statistics used. */
export type Clustering = z.infer<typeof ClusteringSchema>;

/** A run's clustering per dataset, as the snapshot saves it. */
export const DatasetClusteringSchema = ClusteringSchema.extend({ dataset: z.string() });
/** A run's clustering of one dataset. */
export type DatasetClustering = z.infer<typeof DatasetClusteringSchema>;

/** What clustering reads of a case. */
export interface ClusteredCase {
  id: string;
  variant: string;
  metadata: Readonly<Record<string, unknown>>;
}

/**
 * A case's cluster: its metadata's `cluster` (a string or number), else its variant when it is one of the variant's
 * numbered cases (`variant/001`); `undefined` for a case alone in its folder, a cluster of its own. The two kinds are
 * kept apart (`key:`/`variant:`), so a key named like a variant does not join it.
 */
export function clusterOf(c: ClusteredCase): string | undefined {
  const key = c.metadata.cluster;
  if (typeof key === 'string' || typeof key === 'number') return `key:${key}`;
  return c.id !== c.variant ? `variant:${c.variant}` : undefined;
}

/**
 * Whether a set of cases' clusters call for the clustered form: some cluster holds two cases or more, and there are
 * two clusters or more (one cluster alone leaves no spread between clusters to measure; the cases count as
 * independent then).
 */
export function clusteringOf(clusters: readonly (string | undefined)[]): Clustering {
  const sizes = new Map<string, number>();
  let alone = 0;
  for (const c of clusters) {
    if (c === undefined) alone++;
    else sizes.set(c, (sizes.get(c) ?? 0) + 1);
  }
  const count = sizes.size + alone;
  if (count < 2 || ![...sizes.values()].some((s) => s > 1)) return { by: 'none', clusters: 0 };
  const names = [...sizes.keys()];
  const keys = names.some((c) => c.startsWith('key:'));
  const variants = names.some((c) => c.startsWith('variant:'));
  const by = keys && variants ? 'cluster key and variant' : keys ? 'cluster key' : 'variant';
  return { by, clusters: count };
}

/**
 * A run's clusters: each clustered case's cluster by case key (cases alone are left out), and the clustering of each
 * dataset. A dataset whose cases call for no clustering contributes no cluster, so its tests stay the usual ones.
 */
export function clustersOfCases(cases: Iterable<ClusteredCase & { key: string; dataset: string }>): {
  clusters: Map<string, string>;
  clustering: DatasetClustering[];
} {
  const byDataset = new Map<string, { key: string; cluster: string | undefined }[]>();
  for (const c of cases) {
    const list = byDataset.get(c.dataset) ?? [];
    byDataset.set(c.dataset, list);
    list.push({ key: c.key, cluster: clusterOf(c) });
  }
  const clusters = new Map<string, string>();
  const clustering: DatasetClustering[] = [];
  for (const [dataset, list] of byDataset) {
    const found = clusteringOf(list.map((c) => c.cluster));
    clustering.push({ dataset, ...found });
    if (found.by === 'none') continue;
    for (const c of list) if (c.cluster !== undefined) clusters.set(c.key, c.cluster);
  }
  return { clusters, clustering };
}

/**
 * A run's clustering in one phrase: the one clustering its datasets share with their clusters summed, else each
 * dataset's (`pets clustered by variant (4 clusters), toys cases independent`).
 */
export function describeRunClustering(clustering: readonly DatasetClustering[]): string {
  const kinds = new Set(clustering.map((c) => c.by));
  if (kinds.size <= 1) {
    const by = clustering[0]?.by ?? 'none';
    return describeClustering({ by, clusters: clustering.reduce((s, c) => s + c.clusters, 0) });
  }
  return clustering.map((c) => `${c.dataset} ${describeClustering(c)}`).join(', ');
}

/** A clustering as reports say it: `clustered by variant (12 clusters)`, or `cases independent`. */
export function describeClustering(c: Clustering): string {
  return c.by === 'none' ? 'cases independent' : `clustered by ${c.by} (${c.clusters} clusters)`;
}

/**
 * The clustered standard error of the mean of `values` (`clusters[i]` is value i's cluster, `undefined` alone), in the
 * paper's form: SE² = SE_CLT² + (1/n²)·Σ_c Σ_i Σ_{j≠i} rᵢ·rⱼ, with rᵢ = sᵢ − s̄ and SE_CLT² = Σ rᵢ² / (n(n − 1)), which
 * equals (Σ_c (Σ_{i∈c} rᵢ)² + Σ rᵢ² / (n − 1)) / n²: the sum over clusters of their summed residuals squared, with the
 * paper's small-sample factor n/(n − 1) on the diagonal alone. With every case alone it is the usual SE_CLT. NaN
 * under two values.
 */
export function clusteredStandardError(
  values: readonly number[],
  clusters: readonly (string | undefined)[],
): number {
  const n = values.length;
  if (n < 2) return Number.NaN;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sums = new Map<string, number>();
  let squares = 0;
  let alone = 0;
  values.forEach((v, i) => {
    const r = v - mean;
    squares += r * r;
    const c = clusters[i];
    if (c === undefined) alone += r * r;
    else sums.set(c, (sums.get(c) ?? 0) + r);
  });
  let between = alone;
  for (const s of sums.values()) between += s * s;
  return Math.sqrt(Math.max(0, between + squares / (n - 1))) / n;
}

/** How many clusters a set of values spans, a value alone counting as one. */
function clusterCount(clusters: readonly (string | undefined)[]): number {
  return (
    new Set(clusters.filter((c) => c !== undefined)).size + clusters.filter((c) => c === undefined).length
  );
}

/** A clustered test of a mean against 0: its standard error, the t statistic's degrees of freedom (clusters − 1). */
export interface ClusteredTest {
  mean: number;
  se: number;
  df: number;
  ci95: [number, number];
  /** Two-sided. */
  pValue: number;
}

/**
 * Tests whether the mean of `values` (per-case differences, for a paired test) differs from 0 with the clustered
 * standard error and Student's t on clusters − 1 degrees of freedom (few clusters, wide tails); its 95 % interval is
 * the mean ± t·SE. Without spread (SE 0) the exact sign test over the clusters stands in, as in the paired t-test.
 */
export function clusteredTest(
  values: readonly number[],
  clusters: readonly (string | undefined)[],
): ClusteredTest {
  const n = values.length;
  const mean = n ? values.reduce((a, b) => a + b, 0) / n : 0;
  const df = clusterCount(clusters) - 1;
  const se = clusteredStandardError(values, clusters);
  if (!(df >= 1) || !Number.isFinite(se)) return { mean, se: Number.NaN, df, ci95: [mean, mean], pValue: 1 };
  if (se === 0) {
    return { mean, se, df, ci95: [mean, mean], pValue: mean === 0 ? 1 : Math.min(1, 2 * 0.5 ** (df + 1)) };
  }
  const half = studentTQuantile(0.975, df) * se;
  const pValue = Math.min(1, 2 * studentTCdf(-Math.abs(mean / se), df));
  return { mean, se, df, ci95: [mean - half, mean + half], pValue };
}

/**
 * The design effect of clustering on a mean: the clustered variance over the variance as if cases were independent
 * (SE_CLT²); 1 without spread or under two values. A suite of n cases then tells apart what n / deff independent
 * ones would.
 */
export function designEffect(values: readonly number[], clusters: readonly (string | undefined)[]): number {
  const n = values.length;
  const clustered = clusteredStandardError(values, clusters);
  const independent = clusteredStandardError(values, new Array<undefined>(n));
  if (!(independent > 0) || !Number.isFinite(clustered)) return 1;
  return (clustered / independent) ** 2;
}
