import type { CatalogEntry, Provider } from '../api/types.ts';
import { rootCause } from './provider-failure.ts';

/** How long `GET /models` may take before the checks go on without it: the endpoint accepted a connection already. */
const LIST_TIMEOUT_MS = 5000;

/** The models an endpoint says it serves: the names it takes in a request, and the URL that listed them. */
export interface ServedList {
  names: string[];
  url: string;
}

/** A provider whose endpoint lists the models it serves (`GET /models`), so that a lineup's typo is refused unpaid. */
export interface ListsModels {
  /**
   * The served models, from a cache younger than a day, else fetched; `fresh` fetches again (a cached list may predate
   * a model). `undefined` when the endpoint lists none or does not answer: then nothing is checked.
   */
  servedModels(fresh?: boolean): Promise<ServedList | undefined>;
}

/** Whether a provider can list its endpoint's models. */
export function listsModels(provider: Provider): provider is Provider & ListsModels {
  return typeof (provider as Partial<ListsModels>).servedModels === 'function';
}

/** Whether a list serves `model`: by its name, or by Ollama's `name:latest` that a bare name stands for. */
export function servesModel(names: readonly string[], model: string): boolean {
  return names.includes(model) || (!model.includes(':') && names.includes(`${model}:latest`));
}

/** The URL an endpoint lists its models at. */
export function modelsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/models`;
}

/**
 * `GET /models` of an OpenAI-compatible endpoint, with its key when it has one: the ids of `data`. Throws when it does
 * not answer with such a list (a 404, a 401, something else), which the checks take as "not known", never as a refusal.
 */
export async function fetchServedModels(baseUrl: string, key?: string): Promise<CatalogEntry[]> {
  const url = modelsUrl(baseUrl);
  const response = await fetch(url, {
    signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
    ...(key ? { headers: { Authorization: `Bearer ${key}` } } : {}),
  }).catch((error: unknown) => {
    throw new Error(`GET ${url}: ${rootCause(error) ?? String(error)}`, { cause: error });
  });
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  const body = (await response.json().catch(() => undefined)) as { data?: unknown } | undefined;
  if (!Array.isArray(body?.data)) throw new Error(`GET ${url}: not a model list`);
  return body.data.flatMap((m: unknown) => {
    const id = (m as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? [{ id }] : [];
  });
}
