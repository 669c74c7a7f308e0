import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { replyCacheDir, ReplyStore } from '../cache/store.ts';
import { fromCache } from '../core/cache-summary.ts';
import type { Snapshot } from '../core/snapshot.ts';
import { ConfigError } from '../errors.ts';
import { renderCacheLine } from '../report/cache-line.ts';

/** `--cache-only` on an empty cache: a clear message before anything starts, not a table of skipped cases. */
export async function refuseEmptyCache(env: NodeJS.ProcessEnv): Promise<void> {
  const store = new ReplyStore(replyCacheDir(env));
  if (await store.isEmpty())
    throw new ConfigError(
      undefined,
      '--cache-only',
      `the reply cache (${store.dir}) holds no reply yet; run without --cache-only once to fill it`,
    );
}

/**
 * After a run that used the cache: its one line on the terminal when it read the cache, and its hits kept for `cache
 * stats` — a `--no-cache` run's too, which read nothing but kept every reply it paid for.
 */
export async function noteCacheUse(snapshot: Snapshot, io: Io): Promise<void> {
  const mode = snapshot.settings.cache;
  if (mode === undefined) return;
  if (mode === 'read' || mode === 'only') {
    const line = renderCacheLine(snapshot);
    if (line) io.stderr.write(pc.dim(line) + '\n');
  }
  const cachedResults = snapshot.results.filter(fromCache);
  const savedUsd = cachedResults.reduce((sum, r) => sum + (r.usage.costUsd ?? 0), 0);
  const run = {
    runId: snapshot.runId,
    replies: snapshot.results.length,
    cached: cachedResults.length,
    savedUsd,
    ...(mode === 'refresh' ? { mode } : {}),
  };
  // The log only feeds `cache stats`: a disk that cannot take it costs the run nothing.
  await new ReplyStore(replyCacheDir(io.env)).recordRun(run).catch(() => undefined);
}
