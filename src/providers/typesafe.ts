import type { CatalogEntry, Provider, ProviderResponse } from '../api/types.ts';
import { ProviderError } from './errors.ts';

/** TypeSafe's models and per-token prices in dollars, shipped so `verify` and the cost column work offline. */
export const TYPESAFE_CATALOG: readonly CatalogEntry[] = [
  { id: 'typesafe/jev-latest', inputPrice: 0.2e-6, outputPrice: 0.8e-6 },
  { id: 'typesafe/jev-mini', inputPrice: 0.05e-6, outputPrice: 0.2e-6 },
];

/** The direct TypeSafe provider: typed questions, reached only through its `typesafe:` section. */
export class TypeSafeProvider implements Provider {
  readonly name = 'typesafe';
  readonly requestType = 'typesafe';
  readonly requestTypeDescription = 'typed questions: noul, choice, score';
  readonly prefix = 'typesafe/';
  readonly direct = true;
  readonly envKeys = ['TYPESAFE_API_KEY'];
  readonly efforts: string[] = [];

  catalog(): CatalogEntry[] {
    return [...TYPESAFE_CATALOG];
  }

  complete(): Promise<ProviderResponse> {
    return Promise.reject(
      new ProviderError('no typesafe consumer yet', this.name, '', undefined, undefined, {
        retryable: false,
      }),
    );
  }
}
