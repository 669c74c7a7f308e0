import type { CatalogEntry } from '../api/types.ts';
import { CatalogStore, catalogCacheFile } from './catalog-cache.ts';
import { OpenAIBatchApi } from './batch.ts';
import { ChatCompletionsProvider, type TokenPrices } from './chat-completions.ts';
import { fetchServedModels, modelsUrl, type ListsModels, type ServedList } from './served-models.ts';

/** Prices as a lineup writes them: dollars per million tokens. */
export interface PricesPerMillion {
  input: number;
  output: number;
}

/** An OpenAI-compatible endpoint as the lineup declares it: its URL, key variable, prices and models. */
export interface EndpointSettings {
  baseUrl: string;
  apiKeyEnv?: string;
  /** For every model of the endpoint unless the model states its own. */
  prices?: PricesPerMillion;
  models: { model: string; prices?: PricesPerMillion }[];
  /** The endpoint serves OpenAI's Batch API (`/v1/files` + `/v1/batches`), so `--batch` may use it. */
  batch?: boolean;
  /** The share of the price a batch's reply costs less (OpenAI's: 0.5). */
  batchDiscount?: number;
  /** `false`: the endpoint refuses the `json_schema` response format. */
  structuredOutputs?: boolean;
}

const perToken = (prices: PricesPerMillion | undefined): TokenPrices =>
  prices ? { inputPrice: prices.input / 1e6, outputPrice: prices.output / 1e6 } : {};

/** Any server that speaks chat completions (Ollama, vLLM, llama.cpp, LM Studio, OpenAI), named by a lineup section. */
export class OpenAICompatibleProvider extends ChatCompletionsProvider implements ListsModels {
  constructor(name: string, endpoint: EndpointSettings, env: NodeJS.ProcessEnv = process.env) {
    const pricesOf = (model: string) =>
      perToken(endpoint.models.find((m) => m.model === model)?.prices ?? endpoint.prices);
    super({
      name,
      prefix: `${name}/`,
      requestTypeDescription: 'a chat completion: system and user text in, text out',
      apiKeyEnv: endpoint.apiKeyEnv,
      // OpenAI's own values; a server that takes no effort is simply given none.
      efforts: ['minimal', 'low', 'medium', 'high'],
      baseUrl: () => endpoint.baseUrl,
      effortParams: (effort) => ({ reasoning_effort: effort }),
      // The section lists the models, so the catalog needs no network (and no server up for `verify`).
      catalog: (): CatalogEntry[] =>
        endpoint.models.map((m) => ({ id: `${name}/${m.model}`, ...pricesOf(m.model) })),
      prices: (model) => pricesOf(model.name),
      // Each server has a default of its own when none is sent, some of them small: the lineup should say.
      unknownDefaultMaxTokens: true,
      ...(endpoint.structuredOutputs === false ? { structuredOutputs: false } : {}),
      env,
    });
    this.address = endpoint.baseUrl;
    const key = endpoint.apiKeyEnv;
    this.served = new CatalogStore({
      // Kept apart per section; a cache of another URL is not this endpoint's.
      file: () => catalogCacheFile(`endpoint-${name.replace(/[^\w.-]/g, '_')}`, env),
      source: () => endpoint.baseUrl,
      fetch: (url) => fetchServedModels(url, key ? env[key] : undefined),
    });
    this.batch = endpoint.batch
      ? new OpenAIBatchApi({
          name,
          baseUrl: () => endpoint.baseUrl,
          ...(endpoint.apiKeyEnv ? { apiKeyEnv: endpoint.apiKeyEnv } : {}),
          env,
        })
      : undefined;
    this.batchDiscount = endpoint.batchDiscount ?? 0.5;
  }

  private readonly address: string;
  private readonly served: CatalogStore;

  async servedModels(fresh = false): Promise<ServedList | undefined> {
    try {
      const entries = await (fresh ? this.served.reload() : this.served.load());
      return entries.length ? { names: entries.map((e) => e.id), url: modelsUrl(this.address) } : undefined;
    } catch {
      return undefined;
    }
  }

  private readonly batch: OpenAIBatchApi | undefined;
  /** The share of the price a batch's reply costs less: its cost is the call's times (1 − this). */
  readonly batchDiscount: number;

  /** The endpoint's Batch API, when its section says `batch: true`. */
  batchApi(): OpenAIBatchApi | undefined {
    return this.batch;
  }

  /** The endpoint's base URL: `verify` and the run commands check that it accepts a connection before any call. */
  endpoint(): string {
    return this.address;
  }
}
