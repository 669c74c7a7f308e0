import type { CatalogEntry } from '../api/types.ts';
import { isCachingProvider } from './catalog-cache.ts';
import type { ProviderRegistry } from './registry.ts';

/** A provider's catalog as a command read it: its models, and the date of a cached one. */
export interface ReadCatalog {
  entries: CatalogEntry[];
  fetchedAt?: string;
}

/** The catalogs read, by provider name, and what could not be read. */
export interface ReadCatalogs {
  catalogs: Map<string, ReadCatalog>;
  notes: string[];
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Reads the named providers' catalogs. Offline, a provider that caches its catalog is read from the disk cache
 * only (`verify`, and a run before it starts); online, it may fetch the catalog once (`compare -n`).
 */
export async function readCatalogs(
  registry: ProviderRegistry,
  names: Iterable<string>,
  { online }: { online: boolean },
): Promise<ReadCatalogs> {
  const catalogs = new Map<string, ReadCatalog>();
  const notes: string[] = [];
  for (const name of new Set(names)) {
    const provider = registry.get(name);
    if (!provider) continue;
    if (!online && isCachingProvider(provider)) {
      const cached = provider.cachedCatalog();
      if (cached) catalogs.set(name, { entries: cached.models, fetchedAt: cached.fetchedAt });
      else
        notes.push(
          `${name} has no cached catalog yet, so its model ids are not checked (compare -n fetches it)`,
        );
      continue;
    }
    try {
      const entries = await provider.catalog();
      const fetchedAt = isCachingProvider(provider) ? provider.cachedCatalog()?.fetchedAt : undefined;
      catalogs.set(name, { entries, ...(fetchedAt ? { fetchedAt } : {}) });
    } catch (error) {
      notes.push(`${name}'s catalog could not be read (${message(error)}); its costs stay unknown`);
    }
  }
  return { catalogs, notes };
}

/** One warning per model id its provider's catalog does not list; an empty catalog lists nothing and checks nothing. */
export function unknownIds(
  models: readonly { id: string; provider: string }[],
  catalogs: ReadonlyMap<string, ReadCatalog>,
): string[] {
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const { id, provider } of models) {
    const catalog = catalogs.get(provider);
    if (!catalog?.entries.length || seen.has(`${provider}:${id}`)) continue;
    seen.add(`${provider}:${id}`);
    if (catalog.entries.some((entry) => entry.id === id)) continue;
    const of = catalog.fetchedAt ? ` of ${catalog.fetchedAt.slice(0, 10)}` : '';
    warnings.push(`${id} is not in ${provider}'s catalog${of}: check the id`);
  }
  return warnings;
}
