import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolCallMadeSchema, UsageSchema } from '../api/types.ts';
import { replaceFile } from './replace-file.ts';
import { defaultCacheRoot } from '../dirs.ts';

/** The reply cache's folder: `LLM_EVALS_CACHE_DIR`, else `$XDG_CACHE_HOME/llm-evals/replies` (`~/.cache/…`). */
export function replyCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.LLM_EVALS_CACHE_DIR || join(defaultCacheRoot(env), 'replies');
}

/** One kept reply: what the provider answered, and the latency of the call that paid for it. */
export const ReplyEntrySchema = z.object({
  version: z.literal(1),
  key: z.string(),
  storedAt: z.string(),
  provider: z.string(),
  model: z.string(),
  response: z.object({
    text: z.string(),
    usage: UsageSchema,
    truncated: z.boolean().optional(),
    toolCalls: z.array(ToolCallMadeSchema).optional(),
    raw: z.unknown().optional(),
  }),
  /** Seconds the call took when it was paid for. */
  latency: z.number().nullable(),
  /** The run whose batch paid for it: that run counts it as its own call, not as a reply from the cache. */
  batchRun: z.string().optional(),
  /** The batch that paid for it, so a case's page can name it. */
  batchId: z.string().optional(),
  /** The run whose call paid for it, so a later run's case page can say whose reply it reuses. */
  run: z.string().optional(),
});
/** One kept reply: what the provider answered, and the latency of the call that paid for it. */
export type ReplyEntry = z.infer<typeof ReplyEntrySchema>;

/** A finished run's use of the cache, kept for `cache stats`. */
export const CacheRunSchema = z.object({
  at: z.string(),
  runId: z.string(),
  replies: z.number(),
  cached: z.number(),
  savedUsd: z.number(),
  /** `refresh` for a `--no-cache` run: it read nothing from the cache, and kept every reply it called. */
  mode: z.literal('refresh').optional(),
});
/** A finished run's use of the cache, kept for `cache stats`. */
export type CacheRun = z.infer<typeof CacheRunSchema>;

/** What `cache stats` shows: entries, their size, misses on a corrupt entry, and the last runs' hits. */
export interface CacheStats {
  dir: string;
  entries: number;
  bytes: number;
  oldest?: Date;
  newest?: Date;
  corrupt: number;
  runs: CacheRun[];
}

const LOG = 'log.jsonl';
const ENTRY = /^[0-9a-f]{64}\.json$/;
/** A temporary file left by a writer that died before its rename is this old before prune removes it. */
const STALE_TMP_MS = 3_600_000;

/**
 * The reply cache on disk: one JSON file per entry under a folder named by the key's first two characters. A writer
 * writes a temporary file beside the entry and renames it over (atomic on one file system), so a reader sees the whole
 * old entry, the whole new one or none, with any number of workers writing at once and across a crash.
 */
export class ReplyStore {
  constructor(readonly dir: string) {}

  /** The file of a key's entry. */
  fileOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The entry under `key`, or undefined; an unreadable or corrupt entry is a miss, counted for `cache stats`. */
  async get(key: string): Promise<ReplyEntry | undefined> {
    let text: string;
    try {
      // Read at once: an entry is a few kilobytes, and the promise form's four hops through the thread pool (open,
      // stat, read, close) took a cached 1,000-step agent compare from 1.23 s to 1.49 s.
      text = readFileSync(this.fileOf(key), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') await this.#corrupt(key, error);
      return undefined;
    }
    try {
      const entry = ReplyEntrySchema.parse(JSON.parse(text));
      if (entry.key === key) return entry;
      await this.#corrupt(key, new Error('the entry names another key'));
    } catch (error) {
      await this.#corrupt(key, error);
    }
    return undefined;
  }

  /**
   * Keeps an entry: written whole to a temporary file, then renamed over any earlier one. Written at once, as `get`
   * reads: an agent's step waits for its entry, and the promise form's five hops through the thread pool (mkdir, open,
   * write, close, rename) queued behind 16 lanes' others: a 200-case, 5-step agent run's steps (13.0 s at the least)
   * spanned 13.3-13.5 s so, and 13.2 s written at once.
   */
  put(entry: ReplyEntry): Promise<void> {
    const folder = join(this.dir, entry.key.slice(0, 2));
    const temporary = join(folder, `.${entry.key}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    try {
      replaceFile(this.fileOf(entry.key), temporary, JSON.stringify(entry));
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Records a finished run's use of the cache (one appended line, whole however many processes append). */
  async recordRun(run: Omit<CacheRun, 'at'>, now = new Date()): Promise<void> {
    await this.#append({ kind: 'run', at: now.toISOString(), ...run });
  }

  /** Whether the cache holds no entry at all. */
  async isEmpty(): Promise<boolean> {
    for (const folder of await this.#folders()) {
      if ((await readdir(join(this.dir, folder))).some((f) => ENTRY.test(f))) return false;
    }
    return true;
  }

  /** Counts the entries and their bytes, the misses on corrupt entries, and the last `lastRuns` runs' hits. */
  async stats(lastRuns = 5): Promise<CacheStats> {
    const stats: CacheStats = { dir: this.dir, entries: 0, bytes: 0, corrupt: 0, runs: [] };
    await this.#eachEntry(async (file) => {
      const { size, mtime } = await stat(file);
      stats.entries++;
      stats.bytes += size;
      if (!stats.oldest || mtime < stats.oldest) stats.oldest = mtime;
      if (!stats.newest || mtime > stats.newest) stats.newest = mtime;
    });
    for (const line of await this.#logLines()) {
      if (line.kind === 'corrupt') stats.corrupt++;
      const run = CacheRunSchema.safeParse(line);
      if (line.kind === 'run' && run.success) stats.runs.push(run.data);
    }
    stats.runs = stats.runs.slice(-lastRuns);
    return stats;
  }

  /** Removes the entries written before `before` (and temporary files a dead writer left); answers how many went. */
  async prune(before: Date): Promise<number> {
    let removed = 0;
    for (const folder of await this.#folders()) {
      for (const name of await readdir(join(this.dir, folder))) {
        const file = join(this.dir, folder, name);
        const stale = name.endsWith('.tmp') ? new Date(Date.now() - STALE_TMP_MS) : before;
        if (!ENTRY.test(name) && !name.endsWith('.tmp')) continue;
        const { mtime } = await stat(file).catch(() => ({ mtime: new Date() }));
        if (mtime >= stale) continue;
        await rm(file, { force: true });
        if (ENTRY.test(name)) removed++;
      }
    }
    return removed;
  }

  /** Removes every entry and the log; answers how many entries went. */
  async clear(): Promise<number> {
    let removed = 0;
    await this.#eachEntry(() => {
      removed++;
      return Promise.resolve();
    });
    for (const folder of await this.#folders())
      await rm(join(this.dir, folder), { recursive: true, force: true });
    await rm(join(this.dir, LOG), { force: true });
    return removed;
  }

  async #corrupt(key: string, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    await this.#append({
      kind: 'corrupt',
      at: new Date().toISOString(),
      key,
      reason: reason.slice(0, 200),
    }).catch(() => undefined);
  }

  async #append(line: Record<string, unknown>): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await appendFile(join(this.dir, LOG), JSON.stringify(line) + '\n');
  }

  async #logLines(): Promise<Record<string, unknown>[]> {
    const text = await readFile(join(this.dir, LOG), 'utf8').catch(() => '');
    return text.split('\n').flatMap((line) => {
      try {
        const value = JSON.parse(line) as Record<string, unknown> | null;
        return value && typeof value === 'object' ? [value] : [];
      } catch {
        // A line cut by a full disk, or an empty last line: skipped.
        return [];
      }
    });
  }

  async #folders(): Promise<string[]> {
    const names = await readdir(this.dir).catch((): string[] => []);
    return names.filter((n) => /^[0-9a-f]{2}$/.test(n));
  }

  async #eachEntry(visit: (file: string) => Promise<void>): Promise<void> {
    for (const folder of await this.#folders()) {
      for (const name of await readdir(join(this.dir, folder))) {
        if (ENTRY.test(name)) await visit(join(this.dir, folder, name));
      }
    }
  }
}
