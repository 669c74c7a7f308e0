/**
 * Confidence intervals for repeated runs of one contender: a Student t-interval around the mean, a seeded bootstrap
 * as a second method that assumes no normality, and whether two contenders' intervals keep apart. Pure, no Node.
 */

/** A mean and the interval around it at `level` (0.95: 95 %), over `n` values. */
export interface Interval {
  mean: number;
  low: number;
  high: number;
  n: number;
  level: number;
}

// Lanczos approximation (g = 7, 9 terms): |relative error| < 1e-15 for x > 0.
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0. */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The continued fraction of the incomplete beta function, by the modified Lentz method (Numerical Recipes' betacf). */
function betaFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  const guard = (v: number) => (Math.abs(v) < tiny ? tiny : v);
  let c = 1;
  let d = 1 / guard(1 - ((a + b) * x) / (a + 1));
  let h = d;
  for (let m = 1; m <= 1000; m++) {
    const even = (m * (b - m) * x) / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 / guard(1 + even * d);
    c = guard(1 + even / c);
    h *= d * c;
    const odd = (-(a + m) * (a + b + m) * x) / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 / guard(1 + odd * d);
    c = guard(1 + odd / c);
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b), for 0 ≤ x ≤ 1 and a, b > 0. */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  // The fraction converges fast only below the mean; above it, use I_x(a, b) = 1 − I_{1−x}(b, a).
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(x, a, b)) / a
    : 1 - (front * betaFraction(1 - x, b, a)) / b;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom. */
export function studentTCdf(t: number, df: number): number {
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/**
 * The `p` quantile of Student's t with `df` degrees of freedom, by bisection on the exact CDF: the bracket halves to
 * below 1e-12, so the result is as accurate as the CDF (absolute error < 1e-9 for df ≥ 1; tests check R's qt values).
 */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1) || !(df > 0)) return Number.NaN;
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  let low = 0;
  let high = 1;
  while (studentTCdf(high, df) < p) high *= 2;
  while (high - low > 1e-12 * Math.max(1, high)) {
    const middle = (low + high) / 2;
    if (studentTCdf(middle, df) < p) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

const meanOf = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** The mean with its Student t-interval at `level`; `null` under two values, where no spread can be measured. */
export function tInterval(values: readonly number[], level = 0.95): Interval | null {
  const n = values.length;
  if (n < 2) return null;
  const mean = meanOf(values);
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
  const half = studentTQuantile(1 - (1 - level) / 2, n - 1) * Math.sqrt(variance / n);
  return { mean, low: mean - half, high: mean + half, n, level };
}

/** A small, fast, seedable generator (mulberry32): the same seed gives the same resamples everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The `p` quantile of sorted values, interpolating between neighbours (R's type 7, the usual default). */
export function quantile(sorted: ArrayLike<number>, p: number): number {
  const at = (sorted.length - 1) * p;
  const below = Math.floor(at);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below]! + (at - below) * (sorted[above]! - sorted[below]!);
}

/**
 * The mean with a bootstrap percentile interval at `level`: `resamples` means of as many values drawn with
 * replacement, cut at their (1 − level)/2 quantiles. Seeded, so a report shows the same interval every time.
 */
export function bootstrapInterval(
  values: readonly number[],
  options: { level?: number; resamples?: number; seed?: number } = {},
): Interval | null {
  const { level = 0.95, resamples = 2000, seed = 1 } = options;
  const n = values.length;
  if (n < 2) return null;
  const random = seededRandom(seed);
  const means: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += values[Math.floor(random() * n)]!;
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  const tail = (1 - level) / 2;
  return { mean: meanOf(values), low: quantile(means, tail), high: quantile(means, 1 - tail), n, level };
}

/**
 * Whether two contenders' intervals do not overlap, so the difference is unlikely to be noise. Conservative: two 95 %
 * intervals that touch can still hide a real difference; `false` when either interval is missing.
 */
export function separated(a: Interval | null, b: Interval | null): boolean {
  if (!a || !b) return false;
  return a.high < b.low || b.high < a.low;
}
