/** Dollars with four decimals (two significant digits below a hundredth of a cent), or `?` when unknown. */
export function formatCost(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return '?';
  if (usd > 0 && usd < 0.0001) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(4)}`;
}

/**
 * A whole number with thousands separators, or `?` when unknown. Grouped here rather than by toLocaleString: a
 * process's first toLocaleString sets up ICU's number formatting (~25 ms), and a compare formats its first count on
 * the way from its run's close to its tables.
 */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined) return '?';
  const whole = Math.round(n);
  if (!Number.isSafeInteger(whole)) return whole.toLocaleString('en-US');
  const grouped = String(Math.abs(whole)).replace(/\B(?=(\d{3})+$)/g, ',');
  return whole < 0 ? `-${grouped}` : grouped;
}

/** A share in 0..1 as a percentage with one decimal, or `-` when missing. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : `${(value * 100).toFixed(1)}%`;
}

/** Seconds with one or two decimals, or `-`. */
export function formatSeconds(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '-';
  return seconds < 10 ? `${seconds.toFixed(2)}s` : `${seconds.toFixed(1)}s`;
}

/** A temperature, or `default` when none is sent. */
export function formatTemperature(t: number | null): string {
  return t === null ? 'default' : String(t);
}

/** A count with its noun, singular for one: `1 contender`, `3 contenders`, `1,200 cases`. */
export function counted(n: number, noun: string): string {
  return `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;
}
