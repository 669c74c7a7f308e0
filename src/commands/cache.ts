import type { Io } from '../cli/io.ts';
import type { CacheFlags } from '../cli/options.ts';
import { replyCacheDir, ReplyStore, type CacheStats } from '../cache/store.ts';
import { parseEvery } from '../core/schedule-spec.ts';
import { formatCost } from '../report/format.ts';
import { ConfigError, quote } from '../errors.ts';

const size = (bytes: number) =>
  bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
const day = (date: Date | undefined) => date?.toISOString().slice(0, 10) ?? '-';

/** `cache stats` as lines: where, how many entries and bytes, corrupt entries met, and the last runs' hits. */
export function renderCacheStats(stats: CacheStats): string[] {
  const lines = [`reply cache: ${stats.dir}`];
  lines.push(
    `  ${stats.entries} ${stats.entries === 1 ? 'reply' : 'replies'}, ${size(stats.bytes)}` +
      (stats.entries ? `; oldest ${day(stats.oldest)}, newest ${day(stats.newest)}` : ''),
  );
  lines.push(`  corrupt or unreadable entries read as misses: ${stats.corrupt}`);
  if (stats.runs.length === 0) lines.push('  no run has used it yet');
  for (const run of stats.runs) {
    if (run.mode === 'refresh') {
      lines.push(
        `  ${run.runId}: ${run.replies} ${run.replies === 1 ? 'reply' : 'replies'} called and kept (--no-cache)`,
      );
      continue;
    }
    const rate = run.replies ? Math.round((100 * run.cached) / run.replies) : 0;
    lines.push(
      `  ${run.runId}: ${run.cached} of ${run.replies} replies from the cache (${rate} %, saved ${formatCost(run.savedUsd)})`,
    );
  }
  return lines;
}

/** `cache stats|prune|clear`: the per-user reply cache, its size and hits, and keeping it bounded. */
export async function cacheCommand(action: string, flags: CacheFlags, io: Io): Promise<number> {
  const store = new ReplyStore(replyCacheDir(io.env));
  if (action === 'stats') {
    const stats = await store.stats();
    io.stdout.write(
      flags.json ? JSON.stringify(stats, null, 2) + '\n' : renderCacheStats(stats).join('\n') + '\n',
    );
    return 0;
  }
  if (action === 'prune') {
    if (flags.olderThan === undefined)
      throw new ConfigError(undefined, '--older-than', 'cache prune needs an age, such as --older-than 30d');
    const age = parseEvery(flags.olderThan);
    if (age === undefined)
      throw new ConfigError(
        undefined,
        '--older-than',
        `takes an age such as 30d, 12h or 1w, got ${quote(flags.olderThan)}`,
      );
    const before = new Date(Date.now() - age);
    const removed = await store.prune(before);
    io.stdout.write(
      `removed ${removed} ${removed === 1 ? 'reply' : 'replies'} kept before ${before.toISOString()}\n`,
    );
    return 0;
  }
  const removed = await store.clear();
  io.stdout.write(`removed ${removed} ${removed === 1 ? 'reply' : 'replies'} from ${store.dir}\n`);
  return 0;
}
