import type {
  CatalogEntry,
  CompletionRequest,
  ModelSettings,
  Provider,
  ProviderResponse,
} from '../api/types.ts';

/** OpenRouter, the default provider: claims every id (`<vendor>/<model>`) and is asked last. */
export class OpenRouterProvider implements Provider {
  readonly name = 'openrouter';
  readonly requestType = 'prompt';
  readonly requestTypeDescription = 'a chat completion: system and user text in, text out';
  readonly prefix = '';
  readonly direct = false;
  readonly envKeys = ['OPENROUTER_API_KEY'];
  readonly efforts = ['minimal', 'low', 'medium', 'high'];

  catalog(): CatalogEntry[] {
    return [];
  }

  complete(model: ModelSettings & { id: string }, _request: CompletionRequest): Promise<ProviderResponse> {
    return Promise.reject(new Error(`openrouter: calling ${model.id} is not built yet`));
  }
}
