import { ConfigError, nearest, quote } from '../errors.ts';
import { readCatalogs } from '../providers/catalog-check.ts';
import { readLineup } from './lineup.ts';
import type { LoadedSuite } from './load.ts';

/** What `-m` ids are checked against: the lineup's ids, and those of the catalogs that could be read offline. */
export interface KnownModels {
  lineup: readonly string[];
  /** Catalog ids by provider name; a provider missing here has no catalog to check against. */
  catalogs: ReadonlyMap<string, readonly string[]>;
  /** The provider that would serve an id outside the lineup (the registry's rule), if any. */
  providerFor(id: string): string | undefined;
}

/** A model's own name: the id without its vendor or provider prefix. */
const bareName = (id: string) => id.slice(id.lastIndexOf('/') + 1);

/**
 * The id one `-m` value names: a lineup or catalog id as written; a bare name (`echo`, `gpt-4.1-mini`) when exactly one
 * known id ends in it; an id whose provider has no catalog to check, as written. Anything else is a ConfigError with
 * a "did you mean" (exit 2) before any call.
 */
export function resolveModelId(value: string, known: KnownModels, file?: string): string {
  const catalogIds = [...known.catalogs.values()].flat();
  const ids = [...new Set([...known.lineup, ...catalogIds])];
  if (ids.includes(value)) return value;
  const endingIn = ids.filter((id) => id.endsWith(`/${value}`));
  const inLineup = endingIn.filter((id) => known.lineup.includes(id));
  // The lineup's own model wins over a catalog's namesake: `-m echo` means the echo the lineup lists.
  const matches = inLineup.length ? inLineup : endingIn;
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const some = matches.slice(0, 6).map(quote).join(', ');
    const more = matches.length > 6 ? ` and ${matches.length - 6} more` : '';
    throw new ConfigError(
      file,
      '-m',
      `${quote(value)} is ambiguous: it names ${some}${more}; give the whole id`,
    );
  }
  const provider = value.includes('/') ? known.providerFor(value) : undefined;
  if (provider && !known.catalogs.get(provider)?.length) return value;
  const near = nearest(value, [...known.lineup, ...catalogIds], bareName);
  const where = provider ? `the lineup or ${provider}'s catalog` : 'the lineup or any catalog';
  const hint = near
    ? `; did you mean ${quote(near)}?`
    : known.lineup.length
      ? ` (the lineup has ${known.lineup.map(quote).join(', ')})`
      : '';
  throw new ConfigError(file, '-m', `no model ${quote(value)} in ${where}${hint}`);
}

/** Resolves `-m` values against the suite's lineup and the catalogs readable offline; see {@link resolveModelId}. */
export async function resolveModelIds(suite: LoadedSuite, values: readonly string[]): Promise<string[]> {
  const { registry, config } = suite;
  const lineup = readLineup({ config, registry });
  const lineupIds = [...new Set([...lineup.entries, ...lineup.refused].map((e) => e.id))];
  if (values.every((v) => lineupIds.includes(v))) return [...values];
  const read = await readCatalogs(registry, registry.names(), { online: false });
  // A direct provider is reached only through its own section, so its catalog names nothing `-m` could reach.
  const reachable = [...read.catalogs].filter(([name]) => !registry.get(name)?.direct);
  const known: KnownModels = {
    lineup: lineupIds,
    catalogs: new Map(reachable.map(([name, c]) => [name, c.entries.map((e) => e.id)])),
    providerFor: (id) => registry.forId(id)?.name,
  };
  return [...new Set(values.map((v) => resolveModelId(v, known, config.file)))];
}
