import { z } from 'zod';
import type { CatalogEntry } from '../api/types.ts';
import { CatalogStore, catalogCacheFile, type CachedCatalog } from './catalog-cache.ts';
import { ChatCompletionsProvider } from './chat-completions.ts';
import { rootCause } from './provider-failure.ts';
import { modelsUrl, type ListsModels, type ServedList } from './served-models.ts';

/** OpenRouter's API root; `OPENROUTER_BASE_URL` replaces it (a proxy, or a test server on 127.0.0.1). */
export const OPENROUTER_BASE_URL = 'https://openrouter.ai/api/v1';

/** How long a catalog fetch may take before the command goes on without prices. */
const CATALOG_TIMEOUT_MS = 10_000;

// OpenRouter states prices as dollar-per-token strings; "-1" marks a router whose price varies.
const ModelsSchema = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      pricing: z.object({ prompt: z.string().optional(), completion: z.string().optional() }).optional(),
    }),
  ),
});

const price = (text: string | undefined): number | undefined => {
  const value = Number(text ?? NaN);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
};

/** Fetches OpenRouter's model list (`GET /models`): ids and per-token prices. */
export async function fetchOpenRouterModels(baseUrl: string): Promise<CatalogEntry[]> {
  const url = `${baseUrl.replace(/\/+$/, '')}/models`;
  const response = await fetch(url, { signal: AbortSignal.timeout(CATALOG_TIMEOUT_MS) }).catch(
    (error: unknown) => {
      throw new Error(`GET ${url}: ${rootCause(error) ?? String(error)}`, { cause: error });
    },
  );
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  const parsed = ModelsSchema.safeParse(await response.json());
  if (!parsed.success) throw new Error(`GET ${url}: not a model list`);
  return parsed.data.data.map(({ id, pricing }) => {
    const inputPrice = price(pricing?.prompt);
    const outputPrice = price(pricing?.completion);
    return {
      id,
      ...(inputPrice !== undefined ? { inputPrice } : {}),
      ...(outputPrice !== undefined ? { outputPrice } : {}),
    };
  });
}

/** OpenRouter, the default provider: claims every id (`<vendor>/<model>`) and is asked last. */
export class OpenRouterProvider extends ChatCompletionsProvider implements ListsModels {
  private readonly store: CatalogStore;
  private readonly base: () => string;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    const baseUrl = () => env.OPENROUTER_BASE_URL || OPENROUTER_BASE_URL;
    const store = new CatalogStore({
      file: () => catalogCacheFile('openrouter', env),
      source: baseUrl,
      fetch: fetchOpenRouterModels,
    });
    super({
      name: 'openrouter',
      prefix: '',
      requestTypeDescription: 'a chat completion: system and user text in, text out',
      apiKeyEnv: 'OPENROUTER_API_KEY',
      efforts: ['minimal', 'low', 'medium', 'high'],
      baseUrl,
      effortParams: (effort) => ({ reasoning: { effort } }),
      // Asks OpenRouter to state each call's cost in dollars in `usage.cost`.
      extraParams: { usage: { include: true } },
      headers: { 'X-Title': 'llm-evals' },
      catalog: () => store.load(),
      prices: async (model) => (await store.load()).find((entry) => entry.id === model.id),
      env,
    });
    this.store = store;
    this.base = baseUrl;
  }

  /** Its API's address: the checks before a run try a connection to it, as to any endpoint's. */
  endpoint(): string {
    return this.base();
  }

  async servedModels(fresh = false): Promise<ServedList | undefined> {
    try {
      const entries = await (fresh ? this.store.reload() : this.store.load());
      return entries.length ? { names: entries.map((e) => e.id), url: modelsUrl(this.base()) } : undefined;
    } catch {
      return undefined;
    }
  }

  /** The catalog as last cached on disk, read without the network; undefined when it was never fetched. */
  cachedCatalog(): CachedCatalog | undefined {
    return this.store.cached();
  }
}
