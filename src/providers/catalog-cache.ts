import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { CatalogEntry, Provider } from '../api/types.ts';
import { defaultCacheRoot } from '../dirs.ts';

/** How long a cached catalog is used before a command that may go online fetches it again. */
export const CATALOG_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const CatalogEntrySchema = z.strictObject({
  id: z.string(),
  inputPrice: z.number().optional(),
  outputPrice: z.number().optional(),
});

const CachedCatalogSchema = z.strictObject({
  version: z.literal(1),
  source: z.string(),
  fetchedAt: z.iso.datetime(),
  models: z.array(CatalogEntrySchema),
});

/** A catalog as cached on disk: where it came from, when, and its models. */
export type CachedCatalog = z.infer<typeof CachedCatalogSchema>;

/** A provider whose catalog is fetched once and cached, so commands that stay offline can still read it. */
export interface CachingProvider extends Provider {
  cachedCatalog(): CachedCatalog | undefined;
}

/** Whether a provider keeps its catalog in a disk cache (then `verify` reads only that). */
export function isCachingProvider(provider: Provider): provider is CachingProvider {
  return typeof (provider as Partial<CachingProvider>).cachedCatalog === 'function';
}

/** The cache file of a provider's catalog: `<cache root>/catalogs/<provider>.json`. */
export function catalogCacheFile(provider: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(defaultCacheRoot(env), 'catalogs', `${provider}.json`);
}

/** Where a catalog store reads and writes, and how it fetches. */
export interface CatalogSource {
  file(): string;
  /** The base URL it is fetched from; a cache from another source is ignored. */
  source(): string;
  fetch(source: string): Promise<CatalogEntry[]>;
  now?: () => number;
}

/** A catalog fetched at most once per process and per day, and cached on disk with its date. */
export class CatalogStore {
  private loading?: Promise<CatalogEntry[]>;
  /** Whether this process fetched the catalog (rather than read a cache). */
  private fetched = false;

  constructor(private readonly from: CatalogSource) {}

  /** The cached catalog of the current source, read without the network; undefined when there is none. */
  cached(): CachedCatalog | undefined {
    let text: string;
    try {
      text = readFileSync(this.from.file(), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const parsed = CachedCatalogSchema.safeParse(JSON.parse(text));
      return parsed.success && parsed.data.source === this.from.source() ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  /** The catalog: a cache younger than a day, else fetched and cached; a failed fetch falls back to an older cache. */
  load(): Promise<CatalogEntry[]> {
    this.loading ??= this.refresh().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  /** The catalog fetched now whatever the cache's age (a cached one may predate a model), unless this process has. */
  reload(): Promise<CatalogEntry[]> {
    if (this.fetched && this.loading) return this.loading;
    this.loading = this.refresh(true).catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  private async refresh(fresh = false): Promise<CatalogEntry[]> {
    const now = this.from.now?.() ?? Date.now();
    const cached = this.cached();
    if (!fresh && cached && now - Date.parse(cached.fetchedAt) < CATALOG_MAX_AGE_MS) return cached.models;
    const source = this.from.source();
    let models: CatalogEntry[];
    try {
      models = await this.from.fetch(source);
      this.fetched = true;
    } catch (error) {
      if (cached) return cached.models;
      throw error;
    }
    try {
      this.write({ version: 1, source, fetchedAt: new Date(now).toISOString(), models });
    } catch {
      // A cache folder that cannot be written costs a fetch next time, never this catalog.
    }
    return models;
  }

  private write(catalog: CachedCatalog): void {
    const file = this.from.file();
    mkdirSync(dirname(file), { recursive: true });
    // Written aside and renamed, so a process reading it never sees half a file.
    const aside = `${file}.${process.pid}.tmp`;
    writeFileSync(aside, JSON.stringify(catalog));
    renameSync(aside, file);
  }
}
