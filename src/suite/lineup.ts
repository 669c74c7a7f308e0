import { ConfigError } from '../errors.ts';
import type { LineupEntry, RateLimit } from '../core/matrix.ts';
import type { Refusal } from '../core/plan.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { ModelEntry, RateLimitEntry } from './config-schema.ts';
import type { SuiteConfig } from './config.ts';

/** Settings asked for the run; they beat the lineup's entries and defaults. */
export interface SettingOverrides {
  effort?: string[];
  temperature?: number[];
  maxTokens?: number;
}

/** The lineup as entries ready to multiply, with the rate limits they name and the entries refused. */
export interface Lineup {
  entries: LineupEntry[];
  limits: Record<string, RateLimit>;
  /** Per section: the most calls in flight at once (`max_concurrency`). */
  inFlight: Record<string, number>;
  refused: Refusal[];
}

interface RawEntry {
  entry: ModelEntry;
  id: string;
  provider: string;
  keys: string[];
  where: string;
}

const toLimit = (limit: RateLimitEntry): RateLimit => ({ burst: limit.burst, perMinute: limit.per_minute });

/** Where the lineup's pieces are read from: the config, the providers, the run's choices. */
export interface LineupSource {
  config: SuiteConfig;
  registry: ProviderRegistry;
  overrides?: SettingOverrides;
  /** `-m`: only these ids, from the lineup when listed there, else from the registry. */
  models?: string[];
}

function collect(source: LineupSource): Pick<Lineup, 'limits' | 'inFlight'> & { raw: RawEntry[] } {
  const { config, registry } = source;
  const raw: RawEntry[] = [];
  const limits: Record<string, RateLimit> = {};
  const inFlight: Record<string, number> = {};
  const modelLimitAt: Record<string, string> = {};
  const add = (provider: string, id: string, entry: RawEntry['entry'], keys: string[], where: string) => {
    const modelKey = `${provider}:${id}`;
    if (entry.rate_limit) {
      if (modelLimitAt[modelKey]) {
        throw new ConfigError(
          config.file,
          `${where}.rate_limit`,
          `${id} has a rate_limit already at ${modelLimitAt[modelKey]}; a model listed twice shares one limit, set it once`,
        );
      }
      modelLimitAt[modelKey] = where;
      limits[modelKey] = toLimit(entry.rate_limit);
    }
    raw.push({ entry, id, provider, keys: [...keys, modelKey], where });
  };
  for (const [name, section] of Object.entries(config.providers)) {
    const provider = registry.get(name)!;
    if (section.rate_limit) limits[name] = toLimit(section.rate_limit);
    if (section.max_concurrency) inFlight[name] = section.max_concurrency;
    if (section.vendors && provider.prefix !== '') {
      throw new ConfigError(
        config.file,
        `${name}.vendors`,
        `only a routing provider such as openrouter has vendors`,
      );
    }
    for (const [vendor, vendorSection] of Object.entries(section.vendors ?? {})) {
      const vendorKey = `${name}/${vendor}`;
      if (vendorSection.rate_limit) limits[vendorKey] = toLimit(vendorSection.rate_limit);
      vendorSection.models.forEach((entry, i) => {
        const e = entry;
        add(name, `${vendor}/${e.model}`, e, [name, vendorKey], `${name}.vendors.${vendor}.models[${i}]`);
      });
    }
    (section.models ?? []).forEach((entry, i) => {
      const e = entry;
      add(name, `${provider.prefix}${e.model}`, e, [name], `${name}.models[${i}]`);
    });
  }
  return { raw, limits, inFlight };
}

function chosenModels(source: LineupSource, raw: RawEntry[]): RawEntry[] {
  const picked: RawEntry[] = [];
  for (const id of source.models ?? []) {
    const listed = raw.filter((r) => r.id === id);
    if (listed.length > 0) {
      picked.push(...listed);
      continue;
    }
    const provider = source.registry.forId(id);
    if (!provider) throw new ConfigError(undefined, '-m', `no provider serves ${JSON.stringify(id)}`);
    const vendor = provider.prefix === '' ? id.split('/')[0] : undefined;
    const keys = [provider.name, ...(vendor ? [`${provider.name}/${vendor}`] : []), `${provider.name}:${id}`];
    picked.push({ entry: { model: id }, id, provider: provider.name, keys, where: '-m' });
  }
  return picked;
}

/** Reads the lineup's sections into entries with defaults and overrides applied, and refuses what the suite cannot ask. */
export function readLineup(source: LineupSource): Lineup {
  const { config, registry, overrides = {} } = source;
  const { raw: listed, limits, inFlight } = collect(source);
  const raw = source.models?.length ? chosenModels(source, listed) : listed;
  const defaults = config.values.defaults ?? {};
  const requestTypes: readonly string[] = config.values.request_types;
  const entries: LineupEntry[] = [];
  const refused: Refusal[] = [];
  for (const r of raw) {
    const provider = registry.get(r.provider)!;
    if (!requestTypes.includes(provider.requestType)) {
      if (!refused.some((x) => x.id === r.id && x.provider === r.provider)) {
        const message = `${r.id} refused: needs ${provider.requestType}; this suite produces ${requestTypes.join(', ')}`;
        refused.push({ id: r.id, provider: r.provider, needs: provider.requestType, message });
      }
      continue;
    }
    entries.push({
      id: r.id,
      provider: r.provider,
      requestType: provider.requestType,
      model:
        provider.prefix !== '' && r.id.startsWith(provider.prefix)
          ? r.id.slice(provider.prefix.length)
          : r.id,
      effort: overrides.effort ?? r.entry.effort ?? defaults.effort ?? ['default'],
      temperature: overrides.temperature ?? r.entry.temperature ?? defaults.temperature ?? [null],
      maxTokens: overrides.maxTokens ?? r.entry.max_tokens ?? defaults.max_tokens ?? null,
      limits: r.keys.filter((key) => key in limits || key in inFlight),
    });
  }
  return { entries, limits, inFlight, refused };
}
