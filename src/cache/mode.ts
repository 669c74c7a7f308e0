import type { CacheMode } from '../core/plan.ts';

/**
 * A run's cache mode from its flags: `--cache-only` calls nothing; the cache is read when `cache` is true (compare's
 * and run's default, a schedule's `--cache`); otherwise (`--no-cache`, a schedule without `--cache`) every call is
 * made and its reply kept.
 */
export function cacheModeOf(flags: { cache?: boolean; cacheOnly?: boolean }): CacheMode {
  if (flags.cacheOnly) return 'only';
  return flags.cache === true ? 'read' : 'refresh';
}
