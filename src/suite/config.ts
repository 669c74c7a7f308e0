import { readFileSync } from 'node:fs';
import { LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { ConfigError, quote } from '../errors.ts';
import {
  ConfigSchema,
  EndpointSectionSchema,
  ProviderSectionSchema,
  REQUEST_TYPES,
  type ConfigFile,
  type EndpointSection,
  type ProviderSection,
} from './config-schema.ts';

/** The lineup file, parsed and checked: its fixed keys, provider sections, endpoints and tracker sections. */
export interface SuiteConfig {
  file: string;
  values: ConfigFile;
  /** Every provider section, endpoints' included (their rate limits and models). */
  providers: Record<string, ProviderSection>;
  /** The sections that declare an OpenAI-compatible endpoint, to register as providers before the lineup is read. */
  endpoints: Record<string, EndpointSection>;
  trackers: Record<string, Record<string, unknown>>;
}

/** The raw top level of a lineup file, before provider sections can be told from unknown keys. */
export interface RawConfig {
  file: string;
  data: Record<string, unknown>;
}

const FIXED_KEYS = new Set(Object.keys(ConfigSchema.shape));

/** An endpoint's name becomes its id prefix (`<name>/`), so it stays easy to type after `-m`. */
const ENDPOINT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Keys whose values may be secrets: an error names them but never repeats what they hold. */
const SECRET_KEY = /key|token|secret|password/i;

const isEndpointSection = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && 'base_url' in value;

/** The keys that only a provider's section has: a tracker's section holding one was meant as a provider. */
const PROVIDER_KEYS = ['models', 'base_url', 'vendors'];

const looksLikeProvider = (value: unknown): value is Record<string, unknown> =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  PROVIDER_KEYS.some((key) => key in value);

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let node = data;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** `fake.models[2].effort`: indexes written as the lineup's own messages write them. */
function keyPath(path: readonly PropertyKey[]): string {
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : `${i > 0 ? '.' : ''}${String(k)}`)).join('');
}

/** Where an issue points in the data as written: a single value that `oneOrMany` wrapped has no index. */
function writtenPath(data: unknown, path: PropertyKey[]): PropertyKey[] {
  if (typeof path.at(-1) !== 'number') return path;
  const parent = valueAt(data, path.slice(0, -1));
  return parent === undefined || Array.isArray(parent) ? path : path.slice(0, -1);
}

function describeIssue(
  issue: z.core.$ZodIssue,
  data: unknown,
  prefix: PropertyKey[],
): { key: string; problem: string } {
  const path = writtenPath(data, [...prefix, ...issue.path]);
  const value = valueAt(data, path);
  const key = keyPath(path);
  const parent = path.at(-1);
  if (issue.code === 'unrecognized_keys') {
    const unknown = issue.keys.map((k) => keyPath([...path, k])).join(', ');
    const only = issue.keys.length === 1 ? issue.keys[0]! : undefined;
    const got =
      only !== undefined && !SECRET_KEY.test(only) ? `, got ${quote(valueAt(data, [...path, only]))}` : '';
    return { key: unknown, problem: `unknown key${got}` };
  }
  if (parent === 'api_key_env') {
    return {
      key,
      problem: 'must name an environment variable, such as LLAMA_KEY; the key itself never goes here',
    };
  }
  if ((parent === 'burst' || parent === 'per_minute') && value === undefined) {
    const limitPath = path.slice(0, -1);
    return {
      key: keyPath(limitPath),
      problem: `a rate_limit needs both burst and per_minute, got ${quote(valueAt(data, limitPath))}`,
    };
  }
  if (parent === 'request_types' || path[path.length - 2] === 'request_types') {
    const known = REQUEST_TYPES.join(', ');
    if (value === undefined)
      return { key, problem: `required: the request types the adapter sends (${known})` };
    if (value === null || (Array.isArray(value) && value.length === 0))
      return { key, problem: `must name at least one of ${known}` };
    if (parent === 'request_types' && !Array.isArray(value))
      return { key, problem: `must be a list such as [${REQUEST_TYPES[0]}], got ${quote(value)}` };
    return { key, problem: `unknown request type ${quote(value)} (known: ${known})` };
  }
  if (value === undefined) return { key, problem: 'required' };
  const message = issue.message.replace(/^Invalid input: /, '');
  return { key, problem: `${message}, got ${quote(value)}` };
}

/** Turns the first zod issue into a ConfigError naming the file, the key path and the value. */
export function configErrorFrom(
  file: string,
  error: z.ZodError,
  data: unknown,
  prefix: PropertyKey[] = [],
): ConfigError {
  const { key, problem } = describeIssue(error.issues[0]!, data, prefix);
  return new ConfigError(file, key, problem);
}

/** Reads and parses a lineup file's YAML; the keys are checked later by `checkConfig`. */
export function readConfig(file: string): RawConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(file, undefined, `cannot be read (${(error as Error).message})`);
  }
  // `linePos` is only filled with prettyErrors, which also rewrites the message; count lines ourselves.
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  const first = doc.errors[0];
  if (first) {
    throw new ConfigError(
      file,
      `line ${lines.linePos(first.pos[0]).line}`,
      `malformed YAML: ${first.message.split('\n')[0]}`,
    );
  }
  const data: unknown = doc.toJS();
  if (data === null || data === undefined) return { file, data: {} };
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigError(file, undefined, `expected a mapping of keys at the top, got ${quote(data)}`);
  }
  return { file, data: data as Record<string, unknown> };
}

/** Checks a lineup file's keys: fixed keys by schema, others must name a provider or a tracker. */
export function checkConfig(
  raw: RawConfig,
  providerNames: readonly string[],
  trackerNames: readonly string[],
): SuiteConfig {
  const { file, data } = raw;
  const fixed: Record<string, unknown> = {};
  const providers: Record<string, ProviderSection> = {};
  const endpoints: Record<string, EndpointSection> = {};
  const trackers: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'vendors' || key === 'direct') {
      throw new ConfigError(
        file,
        key,
        'the old top-level form is no longer read; run `llm-evals upgrade-config` to rewrite it under `openrouter:`',
      );
    } else if (FIXED_KEYS.has(key)) {
      fixed[key] = value;
    } else if (trackerNames.includes(key)) {
      // Checked before providers: a tracker's name must never quietly swallow a provider's models.
      if (looksLikeProvider(value)) {
        const problem =
          `the name ${quote(key)} is reserved for a tracker (${trackerNames.join(', ')}), ` +
          `but this section has ${PROVIDER_KEYS.filter((k) => k in value).join(', ')}; ` +
          `give the provider section another name, such as ${quote(`${key}-llm`)}`;
        throw new ConfigError(file, key, problem);
      }
      trackers[key] = (value ?? {}) as Record<string, unknown>;
    } else if (providerNames.includes(key)) {
      const parsed = ProviderSectionSchema.safeParse(value ?? {});
      if (!parsed.success) throw configErrorFrom(file, parsed.error, data, [key]);
      providers[key] = parsed.data;
    } else if (isEndpointSection(value)) {
      if (!ENDPOINT_NAME.test(key)) {
        throw new ConfigError(
          file,
          key,
          "an endpoint's name becomes its id prefix: use letters, digits, . _ or -",
        );
      }
      const parsed = EndpointSectionSchema.safeParse(value);
      if (!parsed.success) throw configErrorFrom(file, parsed.error, data, [key]);
      endpoints[key] = parsed.data;
      const { rate_limit, max_concurrency, models } = parsed.data;
      providers[key] = {
        ...(rate_limit ? { rate_limit } : {}),
        ...(max_concurrency ? { max_concurrency } : {}),
        ...(models ? { models } : {}),
      };
    } else {
      const known = [...providerNames].join(', ');
      const got = SECRET_KEY.test(key) ? '' : `, got ${quote(value)}`;
      const problem = `unknown key or provider (providers: ${known}; a new endpoint needs base_url)${got}`;
      throw new ConfigError(file, key, problem);
    }
  }
  const parsed = ConfigSchema.safeParse(fixed);
  if (!parsed.success) throw configErrorFrom(file, parsed.error, data);
  return { file, values: parsed.data, providers, endpoints, trackers };
}

/** The `import:`, `adapter:` and `scorer:` keys, read before the full check so imports can register providers. */
export function suiteCodeKeys(raw: RawConfig): { imports: string[]; adapter?: string; scorer?: string } {
  const picked = ConfigSchema.pick({ import: true, adapter: true, scorer: true }).safeParse({
    import: raw.data.import,
    adapter: raw.data.adapter,
    scorer: raw.data.scorer,
  });
  if (!picked.success) throw configErrorFrom(raw.file, picked.error, raw.data);
  return { imports: picked.data.import ?? [], adapter: picked.data.adapter, scorer: picked.data.scorer };
}
