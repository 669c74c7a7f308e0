/**
 * Paired statistics for two contenders that answered the same cases: an exact McNemar test for 0/1 metrics, a paired
 * t-test for the others, a seeded paired bootstrap interval of the mean difference, Holm's correction and the
 * smallest difference a suite can detect. Pure, no Node.
 */
import { clusteredTest, clusteringOf } from './cluster-se.ts';
import { lnGamma, quantile, seededRandom, studentTCdf } from './stats.ts';

/** ln P(X = k) for X ~ Binomial(m, p), 0 < p < 1. */
function binomialLogPmf(k: number, m: number, p: number): number {
  return lnGamma(m + 1) - lnGamma(k + 1) - lnGamma(m - k + 1) + k * Math.log(p) + (m - k) * Math.log1p(-p);
}

/**
 * The exact (binomial) McNemar test's two-sided p-value from the discordant pairs: `b` cases only A got right, `c`
 * only B. 1 when there are none, as no case tells the two apart.
 */
export function mcnemarExact(b: number, c: number): number {
  const m = b + c;
  if (m === 0) return 1;
  let tail = 0;
  for (let k = 0; k <= Math.min(b, c); k++) tail += Math.exp(binomialLogPmf(k, m, 0.5));
  return Math.min(1, 2 * tail);
}

/**
 * The paired t-test's two-sided p-value on per-case differences; 1 under two cases or when every difference is 0.
 * When every difference is the same and not 0 the t statistic is infinite, and p = 0 claimed certainty from two cases
 * (a stand-in that leaves one field out of each answer was "worse, p < 0.001" over 2 cases): the exact sign test's
 * p-value, all n differences of one sign, stands in for it.
 */
export function pairedTTest(diffs: readonly number[]): number {
  const n = diffs.length;
  if (n < 2) return 1;
  const mean = diffs.reduce((a, b) => a + b, 0) / n;
  const variance = diffs.reduce((s, d) => s + (d - mean) ** 2, 0) / (n - 1);
  if (variance === 0) return mean === 0 ? 1 : Math.min(1, 2 * 0.5 ** n);
  const t = mean / Math.sqrt(variance / n);
  return Math.min(1, 2 * studentTCdf(-Math.abs(t), n - 1));
}

/** Holm's step-down adjustment of p-values, in their given order: controls the chance of any false call at α. */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/** The `p` quantile of the standard normal (Acklam's rational approximation, relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) return Number.NaN;
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
    ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/**
 * The smallest mean difference a paired test on `n` cases detects with `power` at two-sided `alpha`, given the
 * standard deviation of the per-case differences: (z₁₋α/₂ + z_power)·sd/√n. Infinity with no case.
 */
export function minimumDetectableDifference(n: number, sd: number, alpha = 0.05, power = 0.8): number {
  if (n < 1) return Infinity;
  return ((normalQuantile(1 - alpha / 2) + normalQuantile(power)) * sd) / Math.sqrt(n);
}

/** The CDF of Binomial(m, p) at 0..m: the mode's probability from ln Γ, its neighbours by the pmf's ratio. */
function binomialCdf(m: number, p: number): Float64Array {
  const pmf = new Float64Array(m + 1);
  const mode = Math.min(m, Math.floor((m + 1) * p));
  pmf[mode] = Math.exp(binomialLogPmf(mode, m, p));
  const odds = p / (1 - p);
  for (let k = mode; k < m && pmf[k]! > 0; k++) pmf[k + 1] = (pmf[k]! * (m - k) * odds) / (k + 1);
  for (let k = mode; k > 0 && pmf[k]! > 0; k--) pmf[k - 1] = (pmf[k]! * k) / ((m - k + 1) * odds);
  let sum = 0;
  for (let k = 0; k <= m; k++) pmf[k] = sum += pmf[k]!;
  return pmf;
}

/** Inverse-CDF tables of binomial distributions, so one draw costs a binary search instead of `m` uniform draws. */
class BinomialSampler {
  private readonly tables = new Map<string, Float64Array>();

  draw(m: number, p: number, random: () => number): number {
    if (m === 0 || p <= 0) return 0;
    if (p >= 1) return m;
    const key = `${m}:${p}`;
    let cdf = this.tables.get(key);
    if (!cdf) {
      cdf = binomialCdf(m, p);
      this.tables.set(key, cdf);
    }
    const u = random() * cdf[m]!;
    let low = 0;
    let high = m;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (cdf[mid]! < u) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

// Above this many distinct differences the resamples draw case by case; below it, as multinomial counts.
const FEW_VALUES = 16;

/**
 * The means of `resamples` bootstrap resamples of `diffs` (each as many values drawn with replacement). Differences of
 * 0/1 metrics take few values: then each resample's counts per value are drawn as a multinomial (binomial after
 * binomial), which is the same distribution at a fraction of the cost; `byCase` forces the case-by-case draw.
 */
export function resampleMeans(
  diffs: readonly number[],
  resamples: number,
  random: () => number,
  byCase = false,
): Float64Array {
  const n = diffs.length;
  const means = new Float64Array(resamples);
  const counts = new Map<number, number>();
  for (const d of diffs) counts.set(d, (counts.get(d) ?? 0) + 1);
  if (!byCase && counts.size <= FEW_VALUES) {
    const values = [...counts.keys()];
    const left = values.map((_, j) => values.slice(j).reduce((s, v) => s + counts.get(v)!, 0));
    const sampler = new BinomialSampler();
    for (let r = 0; r < resamples; r++) {
      let remaining = n;
      let sum = 0;
      for (let j = 0; j < values.length && remaining > 0; j++) {
        const x =
          j === values.length - 1
            ? remaining
            : sampler.draw(remaining, counts.get(values[j]!)! / left[j]!, random);
        sum += x * values[j]!;
        remaining -= x;
      }
      means[r] = sum / n;
    }
    return means;
  }
  const data = Float64Array.from(diffs);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += data[(random() * n) | 0]!;
    means[r] = sum / n;
  }
  return means;
}

/**
 * The means of `resamples` bootstrap resamples of several contenders' values over the same cases, each resample
 * drawing one set of cases for all of them (`columns[c][i]`: contender c on case i). The difference of two
 * contenders' means in a resample is that resample's mean difference, so one pass serves every pair.
 */
export function resampleMeansTogether(
  columns: readonly (readonly number[])[],
  resamples: number,
  random: () => number,
): Float64Array[] {
  const n = columns[0]?.length ?? 0;
  const data = columns.map((column) => Float64Array.from(column));
  const means = columns.map(() => new Float64Array(resamples));
  // A resample as how often it drew each case; each contender's sum is then one pass down its own column, four
  // columns to a pass so each count is loaded once for four of them (a fifth less CPU than a pass per column).
  const counts = new Float64Array(n);
  const none = new Float64Array(n);
  for (let r = 0; r < resamples; r++) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(random() * n) | 0]! += 1;
    for (let c = 0; c < data.length; c += 4) {
      const [w, x, y, z] = [data[c]!, data[c + 1] ?? none, data[c + 2] ?? none, data[c + 3] ?? none];
      let sw = 0;
      let sx = 0;
      let sy = 0;
      let sz = 0;
      for (let i = 0; i < n; i++) {
        const k = counts[i]!;
        sw += k * w[i]!;
        sx += k * x[i]!;
        sy += k * y[i]!;
        sz += k * z[i]!;
      }
      const sums = [sw, sx, sy, sz];
      for (let j = 0; j < 4 && c + j < data.length; j++) means[c + j]![r] = sums[j]! / n;
    }
  }
  return means;
}

/** A paired comparison of A against B over the cases both have a value for. */
export interface PairedResult {
  /** Cases paired: both contenders have a value. */
  n: number;
  /** The mean of A − B per case; 0 with no case. */
  meanDiff: number;
  /** The 95 % paired bootstrap percentile interval of the mean difference; the mean itself under two cases. */
  ci95: [number, number];
  /** Two-sided, before any correction for multiple comparisons. */
  pValue: number;
  /** `clustered-t` when the pairs fall in clusters (pass/fail metrics too): a t-test on the clustered SE. */
  test: 'mcnemar-exact' | 'paired-t' | 'clustered-t';
}

/**
 * Compares A with B case by case: per-case values at the same index are a pair, a `null` on either side drops the
 * pair. A metric that is 0/1 on every pair gets McNemar's exact test, any other the paired t-test; the interval is a
 * seeded paired bootstrap. With `clusters` (each case's, `undefined` alone) that group the pairs, both assume
 * independent cases, so the test and the interval are the clustered t's (`clusteredTest`), for 0/1 metrics too.
 */
export function comparePaired(
  a: readonly (number | null)[],
  b: readonly (number | null)[],
  options: {
    seed: number;
    resamples?: number;
    /** The resamples' mean differences, drawn already (by `resampleMeansTogether`) for these same pairs. */
    resampled?: Float64Array;
    /** Each case's cluster, at the same index as the values. */
    clusters?: readonly (string | undefined)[];
  },
): PairedResult {
  // One pass, no pair kept: each case's difference, and whether every value is 0 or 1 (a run's 100,000 cases made
  // 100,000 small arrays here).
  const diffs: number[] = [];
  let binary = true;
  let aBetter = 0;
  let bBetter = 0;
  const paired: (string | undefined)[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === null || x === undefined || y === null || y === undefined) continue;
    const d = x - y;
    diffs.push(d);
    if (options.clusters) paired.push(options.clusters[i]);
    if (d > 0) aBetter++;
    else if (d < 0) bBetter++;
    if (binary && !((x === 0 || x === 1) && (y === 0 || y === 1))) binary = false;
  }
  const n = diffs.length;
  const meanDiff = n ? diffs.reduce((s, d) => s + d, 0) / n : 0;
  if (options.clusters && clusteringOf(paired).by !== 'none') {
    const { ci95, pValue } = clusteredTest(diffs, paired);
    return { n, meanDiff, ci95, pValue, test: 'clustered-t' };
  }
  const pValue = binary ? mcnemarExact(aBetter, bBetter) : pairedTTest(diffs);
  let ci95: [number, number] = [meanDiff, meanDiff];
  if (n >= 2) {
    const drawn =
      options.resampled ?? resampleMeans(diffs, options.resamples ?? 10_000, seededRandom(options.seed));
    const means = Float64Array.from(drawn).sort();
    ci95 = [quantile(means, 0.025), quantile(means, 0.975)];
  }
  return { n, meanDiff, ci95, pValue, test: binary ? 'mcnemar-exact' : 'paired-t' };
}
