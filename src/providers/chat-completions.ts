import type { APIError, OpenAI } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
} from 'openai/resources/chat/completions';
import { z } from 'zod';
import type {
  CatalogEntry,
  CompletionRequest,
  ModelSettings,
  Provider,
  ProviderResponse,
  Usage,
} from '../api/types.ts';
import { ProviderError } from './errors.ts';
import { toolCallsOf, toolFields, wireMessages } from './tool-wire.ts';
import { PROBE_TOOL, toolRefusal } from './tool-support.ts';

/** How long the probe of tool support may take before the checks go on without its answer. */
const PROBE_TIMEOUT_MS = 10_000;
import { errorInBody, toProviderError, type FailedCall } from './provider-failure.ts';

/** The two parts of the `openai` package a provider uses. */
type OpenAISdk = { OpenAI: typeof OpenAI; APIError: typeof APIError };
let sdk: Promise<OpenAISdk> | undefined;
/** The `openai` client, loaded on the first call: a compare of fake or local models never pays its start-up. */
const openai = () => (sdk ??= import('openai'));

/** A model as a provider is asked to call it: the contender's id, the provider's own name for it, its settings. */
export type CalledModel = ModelSettings & { name: string; id: string };

/** Dollars per token for input and output, as a catalog states them. */
export type TokenPrices = Pick<CatalogEntry, 'inputPrice' | 'outputPrice'>;

/** How one chat-completions API differs from another: where it lives, its key, how it takes effort, its prices. */
export interface ChatCompletionsConfig {
  name: string;
  prefix: string;
  requestTypeDescription: string;
  /** The variable holding the key, read from the worker's own environment at call time; none for a keyless endpoint. */
  apiKeyEnv?: string;
  efforts: string[];
  /** Read at call time, so an environment variable can move it. */
  baseUrl(): string;
  /** The request fields that carry a reasoning effort. */
  effortParams(effort: string): Record<string, unknown>;
  /** Fields every request carries, such as OpenRouter's `usage: {include: true}`. */
  extraParams?: Record<string, unknown>;
  headers?: Record<string, string>;
  catalog(): CatalogEntry[] | Promise<CatalogEntry[]>;
  /** `false` for an endpoint that refuses the `json_schema` response format: a schema goes as `json_object`. */
  structuredOutputs?: boolean;
  /** `true` for a server whose own token limit, when none is sent, nobody knows (Provider.unknownDefaultMaxTokens). */
  unknownDefaultMaxTokens?: boolean;
  /** Prices for a model whose reply states no cost. */
  prices(model: CalledModel): TokenPrices | undefined | Promise<TokenPrices | undefined>;
  env?: NodeJS.ProcessEnv;
}

// Parsed loosely: servers add fields of their own, and any of these may be missing.
const UsageSchema = z.object({
  prompt_tokens: z.number().nonnegative().optional(),
  completion_tokens: z.number().nonnegative().optional(),
  cost: z.number().nonnegative().optional(),
});

/** Tokens and dollars from a reply's `usage`; what it leaves out stays `null` (unknown), never 0. */
export function usageOf(raw: unknown): Usage {
  const parsed = UsageSchema.safeParse(raw);
  if (!parsed.success) return { inputTokens: null, outputTokens: null, costUsd: null };
  const { prompt_tokens, completion_tokens, cost } = parsed.data;
  return {
    inputTokens: prompt_tokens ?? null,
    outputTokens: completion_tokens ?? null,
    costUsd: cost ?? null,
  };
}

/** Fills a usage's missing cost from per-token prices, when both token counts and both prices are known. */
export function priceUsage(usage: Usage, prices: TokenPrices | undefined): Usage {
  const { inputTokens: input, outputTokens: output } = usage;
  if (usage.costUsd !== null || input === null || output === null) return usage;
  if (prices?.inputPrice === undefined || prices.outputPrice === undefined) return usage;
  return { ...usage, costUsd: input * prices.inputPrice + output * prices.outputPrice };
}

/**
 * Whether a choice was stopped by the token limit: `finish_reason: length` (OpenAI and the servers that copy it,
 * OpenRouter's normalised one), or the upstream's own word, which OpenRouter passes on as `native_finish_reason`.
 */
export function cutAtLimit(choice: unknown): boolean {
  const { finish_reason: reason, native_finish_reason: native } = (choice ?? {}) as Record<string, unknown>;
  return reason === 'length' || (typeof native === 'string' && /^(length|max_tokens)$/i.test(native));
}

/** What a 400 refusing the `json_schema` response format says (OpenAI, vLLM, llama.cpp and the like name it). */
const SCHEMA_REFUSAL = /response_format|json_schema|schema|structured/i;

/** The response format a request asks for: its schema where the endpoint takes one, else a JSON object, else none. */
function responseFormat(request: CompletionRequest, structured: boolean): Record<string, unknown> {
  const { jsonSchema } = request;
  if (jsonSchema && structured)
    return {
      response_format: {
        type: 'json_schema',
        json_schema: { name: jsonSchema.name, strict: true, schema: jsonSchema.schema },
      },
    };
  return request.json || jsonSchema ? { response_format: { type: 'json_object' } } : {};
}

/** The request body: only the settings the contender sets are sent (unset means send nothing). */
export function chatBody(
  model: CalledModel,
  request: CompletionRequest,
  config: Pick<ChatCompletionsConfig, 'effortParams' | 'extraParams' | 'structuredOutputs'>,
): ChatCompletionCreateParamsNonStreaming {
  return {
    model: model.name,
    messages: wireMessages(request),
    ...toolFields(request),
    ...(model.temperature !== undefined ? { temperature: model.temperature } : {}),
    ...(model.maxTokens !== undefined ? { max_tokens: model.maxTokens } : {}),
    ...(model.seed !== undefined ? { seed: model.seed } : {}),
    ...responseFormat(request, config.structuredOutputs !== false),
    ...(model.effort !== undefined ? config.effortParams(model.effort) : {}),
    ...config.extraParams,
  };
}

/** A provider speaking the chat-completions protocol through the `openai` client; OpenRouter and YAML endpoints configure it. */
export class ChatCompletionsProvider implements Provider {
  readonly name: string;
  readonly requestType = 'prompt';
  readonly requestTypeDescription: string;
  readonly prefix: string;
  readonly direct = false;
  readonly envKeys: string[];
  readonly efforts: string[];
  readonly unknownDefaultMaxTokens: boolean;
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly config: ChatCompletionsConfig) {
    this.name = config.name;
    this.prefix = config.prefix;
    this.requestTypeDescription = config.requestTypeDescription;
    this.envKeys = config.apiKeyEnv ? [config.apiKeyEnv] : [];
    this.efforts = config.efforts;
    this.unknownDefaultMaxTokens = config.unknownDefaultMaxTokens ?? false;
    this.env = config.env ?? process.env;
  }
  /** The endpoint's URL: a reply of one server is not another's. */
  cacheScope(): string {
    return this.config.baseUrl();
  }

  catalog(): CatalogEntry[] | Promise<CatalogEntry[]> {
    return this.config.catalog();
  }

  /** Set once the endpoint answered 400 to a `json_schema` response format: its schemas go as `json_object` since. */
  private schemaRefused = false;

  async complete(model: CalledModel, request: CompletionRequest): Promise<ProviderResponse> {
    if (!request.jsonSchema || this.schemaRefused || this.config.structuredOutputs === false)
      return this.completeOnce(model, request);
    try {
      return await this.completeOnce(model, request);
    } catch (error) {
      // An endpoint that does not take a schema says so with a 400 naming it: once, the same request goes again as a
      // JSON object. Another 400 (a prompt too long) would fail the same way, and is not asked twice.
      if (!(error instanceof ProviderError) || error.status !== 400 || !SCHEMA_REFUSAL.test(error.message))
        throw error;
      this.schemaRefused = true;
      return this.completeOnce(model, request);
    }
  }

  private async completeOnce(model: CalledModel, request: CompletionRequest): Promise<ProviderResponse> {
    const keyName = this.config.apiKeyEnv;
    const key = keyName ? this.env[keyName] : undefined;
    const call: FailedCall = { provider: this.name, model: model.id, baseUrl: this.config.baseUrl(), key };
    if (keyName && !key) {
      // Status 401: a worker without the key fails each case once instead of retrying five times.
      throw new ProviderError(`${keyName} is not set in this worker's environment`, this.name, model.id, 401);
    }
    const sdk = await openai();
    let completion: ChatCompletion;
    try {
      completion = await this.client(sdk, call).chat.completions.create(
        chatBody(model, request, { ...this.config, structuredOutputs: this.structured() }),
      );
    } catch (error) {
      throw toProviderError(error, call, sdk.APIError);
    }
    const failed = errorInBody(completion, call);
    if (failed) throw failed;
    return this.responseOf(model, completion);
  }

  /**
   * Asks the endpoint once, with a one-word request offering one tool and a reply of one token, whether `model` takes
   * tools: the refusal in the endpoint's words, or undefined (taken, or nothing sure: no key, no answer, a 5xx).
   */
  async refusesTools(model: { id: string; name: string }): Promise<string | undefined> {
    const keyName = this.config.apiKeyEnv;
    const key = keyName ? this.env[keyName] : undefined;
    if (keyName && !key) return undefined;
    const call: FailedCall = { provider: this.name, model: model.id, baseUrl: this.config.baseUrl(), key };
    const sdk = await openai();
    try {
      await this.client(sdk, call).chat.completions.create(
        {
          model: model.name,
          messages: [{ role: 'user', content: 'ping' }],
          tools: [PROBE_TOOL],
          max_tokens: 1,
          ...this.config.extraParams,
        },
        { timeout: PROBE_TIMEOUT_MS },
      );
      return undefined;
    } catch (error) {
      if (!(error instanceof sdk.APIError)) return undefined;
      return toolRefusal(error.status as number | undefined, error.message);
    }
  }

  /** The body a call of `model` sends for `request`: what a batch's line carries too. */
  requestBody(model: CalledModel, request: CompletionRequest): ChatCompletionCreateParamsNonStreaming {
    return chatBody(model, request, { ...this.config, structuredOutputs: this.structured() });
  }

  private structured(): boolean {
    return this.config.structuredOutputs !== false && !this.schemaRefused;
  }

  /** A completion as the adapter gets it: text, usage priced from the catalog when it states no cost, the cut mark. */
  async responseOf(model: CalledModel, completion: ChatCompletion): Promise<ProviderResponse> {
    const choice = (completion.choices as ChatCompletion['choices'] | undefined)?.[0];
    // No status: a reply without a choice is a provider hiccup, retried like a dropped connection.
    if (!choice) throw new ProviderError('the reply has no choices', this.name, model.id);
    let usage = usageOf(completion.usage);
    if (usage.costUsd === null && usage.inputTokens !== null)
      usage = priceUsage(usage, await this.prices(model));
    const truncated = cutAtLimit(choice);
    const toolCalls = toolCallsOf(choice.message);
    return {
      text: choice.message?.content ?? '',
      ...(toolCalls.length ? { toolCalls } : {}),
      usage,
      raw: completion,
      ...(truncated ? { truncated } : {}),
    };
  }

  /**
   * The client of the last call, kept while its URL and key stay the same: making one per call cost more CPU than
   * the call's own request (a tenth of a millisecond each, 2,000 a judged compare of 1,000 cases).
   */
  private made?: { baseUrl: string; key: string | undefined; client: OpenAI };

  private client(sdk: OpenAISdk, { baseUrl, key }: FailedCall): OpenAI {
    const made = this.made;
    if (made?.baseUrl === baseUrl && made.key === key) return made.client;
    const client = this.newClient(sdk, baseUrl, key);
    this.made = { baseUrl, key, client };
    return client;
  }

  private newClient(sdk: OpenAISdk, baseUrl: string, key: string | undefined): OpenAI {
    return new sdk.OpenAI({
      baseURL: baseUrl,
      // The client insists on a key; a keyless endpoint gets a placeholder and no Authorization header.
      apiKey: key ?? 'none',
      defaultHeaders: { ...this.config.headers, ...(key ? {} : { Authorization: null }) },
      // Set explicitly, so OPENAI_ORG_ID or OPENAI_PROJECT_ID in the environment never reach another provider.
      organization: null,
      project: null,
      // Retries belong to Temporal: the activity throws and its retry policy decides.
      maxRetries: 0,
    });
  }

  /** A catalog that cannot be read leaves the cost unknown; it never fails a call that worked. */
  private async prices(model: CalledModel): Promise<TokenPrices | undefined> {
    try {
      return await this.config.prices(model);
    } catch {
      return undefined;
    }
  }
}
