import type { ChatCompletion } from 'openai/resources/chat/completions';
import { z } from 'zod';
import type { CompletionRequest, Provider, ProviderResponse } from '../api/types.ts';
import type { CalledModel } from './chat-completions.ts';
import { ProviderError } from './errors.ts';

/** One request of a batch: its id in the batch (the reply cache's key) and the chat-completions body. */
export interface BatchRequest {
  customId: string;
  body: object;
}

/** The metadata a run tags its batches with, so a retried submit finds the batch it made before a crash. */
export type BatchTag = Record<string, string>;

const BatchSchema = z.object({
  id: z.string(),
  status: z.string(),
  created_at: z.number().optional(),
  expires_at: z.number().nullish(),
  output_file_id: z.string().nullish(),
  error_file_id: z.string().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  request_counts: z.object({ total: z.number(), completed: z.number(), failed: z.number() }).nullish(),
});

/** A batch as the provider reports it: status, counts, when it was made and where its results are. */
export interface BatchStatus {
  id: string;
  status: string;
  total: number;
  completed: number;
  failed: number;
  /** Seconds since the epoch, as the provider states them. */
  createdAt?: number;
  expiresAt?: number;
  outputFileId?: string;
  errorFileId?: string;
}

/** One line of a batch's output or error file: a chat completion's body, or why there is none. */
export interface BatchResultLine {
  customId: string;
  body?: unknown;
  status?: number;
  error?: string;
}

const ResultLineSchema = z.object({
  custom_id: z.string(),
  response: z.object({ status_code: z.number(), body: z.unknown() }).nullish(),
  error: z.object({ code: z.string().nullish(), message: z.string().nullish() }).nullish(),
});

/** Where a batch API lives and how to reach it: the endpoint's base URL and the variable holding its key. */
export interface BatchApiSettings {
  name: string;
  baseUrl(): string;
  apiKeyEnv?: string;
  env?: NodeJS.ProcessEnv;
}

/** How many pages of the batch list a submit looks through for a batch it made before (newest first). */
const LIST_PAGES = 5;

const statusOf = (raw: z.infer<typeof BatchSchema>): BatchStatus => ({
  id: raw.id,
  status: raw.status,
  total: raw.request_counts?.total ?? 0,
  completed: raw.request_counts?.completed ?? 0,
  failed: raw.request_counts?.failed ?? 0,
  ...(raw.created_at !== undefined ? { createdAt: raw.created_at } : {}),
  ...(raw.expires_at ? { expiresAt: raw.expires_at } : {}),
  ...(raw.output_file_id ? { outputFileId: raw.output_file_id } : {}),
  ...(raw.error_file_id ? { errorFileId: raw.error_file_id } : {}),
});

/** Parses a batch's output or error file (JSONL) into its lines; a line that does not parse is skipped. */
export function parseResultFile(text: string): BatchResultLine[] {
  return text.split('\n').flatMap((line): BatchResultLine[] => {
    if (!line.trim()) return [];
    let parsed;
    try {
      parsed = ResultLineSchema.safeParse(JSON.parse(line));
    } catch {
      return [];
    }
    if (!parsed.success) return [];
    const { custom_id: customId, response, error } = parsed.data;
    if (response && response.status_code === 200) return [{ customId, body: response.body }];
    const said = (response?.body as { error?: { message?: string } } | undefined)?.error?.message;
    const message = said ?? error?.message ?? error?.code ?? 'no reply';
    return [{ customId, ...(response ? { status: response.status_code } : {}), error: message }];
  });
}

/**
 * OpenAI's Batch API (`/v1/files` + `/v1/batches`), as OpenAI and the servers that copy it serve it. The key is read
 * from the worker's environment at each request and goes only into the Authorization header, never into a message.
 */
export class OpenAIBatchApi {
  constructor(private readonly settings: BatchApiSettings) {}

  /** The batch tagged with exactly `tag`, when the provider lists one (the newest such). */
  async find(tag: BatchTag): Promise<BatchStatus | undefined> {
    let after: string | undefined;
    for (let page = 0; page < LIST_PAGES; page++) {
      const query = `?limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`;
      const list = z
        .object({ data: z.array(BatchSchema), has_more: z.boolean().optional() })
        .parse(await this.json('GET', `/batches${query}`));
      const found = list.data.find((b) => Object.entries(tag).every(([k, v]) => b.metadata?.[k] === v));
      if (found) return statusOf(found);
      if (!list.has_more || !list.data.length) return undefined;
      after = list.data.at(-1)!.id;
    }
    return undefined;
  }

  /**
   * Sends `requests` as one batch tagged `tag`, unless a batch with that tag exists already (made by an attempt that
   * died before its result was recorded): then that one is answered, and `created` is false.
   */
  async submit(
    requests: readonly BatchRequest[],
    tag: BatchTag,
  ): Promise<{ batch: BatchStatus; created: boolean }> {
    const existing = await this.find(tag);
    if (existing) return { batch: existing, created: false };
    const jsonl = requests
      .map((r) =>
        JSON.stringify({ custom_id: r.customId, method: 'POST', url: '/v1/chat/completions', body: r.body }),
      )
      .join('\n');
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([jsonl + '\n'], { type: 'application/jsonl' }), 'requests.jsonl');
    const file = z.object({ id: z.string() }).parse(await this.json('POST', '/files', form));
    const body = {
      input_file_id: file.id,
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
      metadata: tag,
    };
    const made = BatchSchema.parse(await this.json('POST', '/batches', body));
    return { batch: statusOf(made), created: true };
  }

  /** The batch's status and counts now. */
  async retrieve(id: string): Promise<BatchStatus> {
    return statusOf(BatchSchema.parse(await this.json('GET', `/batches/${encodeURIComponent(id)}`)));
  }

  /** Asks the provider to cancel the batch; answers its status after the ask. */
  async cancel(id: string): Promise<BatchStatus> {
    return statusOf(
      BatchSchema.parse(await this.json('POST', `/batches/${encodeURIComponent(id)}/cancel`, {})),
    );
  }

  /** The lines of an ended batch's output and error files. */
  async results(batch: BatchStatus): Promise<BatchResultLine[]> {
    const lines: BatchResultLine[] = [];
    for (const file of [batch.outputFileId, batch.errorFileId]) {
      if (file)
        lines.push(...parseResultFile(await this.text('GET', `/files/${encodeURIComponent(file)}/content`)));
    }
    return lines;
  }

  private async json(method: string, path: string, body?: object): Promise<unknown> {
    const text = await this.text(method, path, body);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderError(`${method} ${path} answered no JSON`, this.settings.name, 'batch');
    }
  }

  private async text(method: string, path: string, body?: object): Promise<string> {
    const { apiKeyEnv, name } = this.settings;
    const key = apiKeyEnv ? (this.settings.env ?? process.env)[apiKeyEnv] : undefined;
    if (apiKeyEnv && !key)
      throw new ProviderError(`${apiKeyEnv} is not set in this worker's environment`, name, 'batch', 401);
    const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
    if (body && !(body instanceof FormData)) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${this.settings.baseUrl().replace(/\/$/, '')}${path}`, {
        method,
        headers,
        ...(body ? { body: body instanceof FormData ? body : JSON.stringify(body) } : {}),
      });
    } catch (error) {
      // The cause may name the URL, never the key (it is only in a header).
      throw new ProviderError(
        `${method} ${path} failed: ${(error as Error).message}`,
        name,
        'batch',
        undefined,
        undefined,
        {
          cause: error,
        },
      );
    }
    const text = await response.text();
    if (!response.ok) {
      const said = /"message"\s*:\s*"([^"]*)"/.exec(text)?.[1] ?? text.slice(0, 200);
      throw new ProviderError(
        `${method} ${path}: ${response.status} ${said}`,
        name,
        'batch',
        response.status,
      );
    }
    return text;
  }
}

/** What a provider that can send batches offers: its batch API, its discount, the request body, a line's reply. */
export interface BatchCapable {
  batchApi(): OpenAIBatchApi | undefined;
  /** The share off the price of a reply that came through a batch. */
  readonly batchDiscount: number;
  requestBody(model: CalledModel, request: CompletionRequest): object;
  responseOf(model: CalledModel, completion: ChatCompletion): Promise<ProviderResponse>;
}

/** A provider with a batch API (an endpoint whose section says `batch: true`), with that API; else undefined. */
export function batchProvider(
  provider: unknown,
): { provider: BatchCapable; api: OpenAIBatchApi } | undefined {
  const capable = provider as Partial<BatchCapable> | undefined;
  const api = typeof capable?.batchApi === 'function' ? capable.batchApi() : undefined;
  return api ? { provider: capable as BatchCapable, api } : undefined;
}

/**
 * Whether this process can reach the batch API of the endpoint `name` (a worker for its rounds, `cancel` for the
 * batches no worker cancelled): the API, or why not: no endpoint of that name (`provider`), none with `batch: true`
 * (`batchApi`), or its key not set in `env`.
 */
export type BatchReach =
  | ({ found: true } & NonNullable<ReturnType<typeof batchProvider>>)
  | { found: false; missing: 'provider' | 'batchApi' }
  | { found: false; missing: 'key'; envVar: string };

export function reachBatchApi(
  registry: { get(name: string): Provider | undefined },
  name: string,
  env: NodeJS.ProcessEnv,
): BatchReach {
  const provider = registry.get(name);
  if (!provider) return { found: false, missing: 'provider' };
  const capable = batchProvider(provider);
  if (!capable) return { found: false, missing: 'batchApi' };
  const envVar = provider.envKeys.find((key) => !env[key]);
  return envVar ? { found: false, missing: 'key', envVar } : { found: true, ...capable };
}
