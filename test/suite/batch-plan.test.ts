import { describe, expect, it } from 'vitest';
import type { Contender } from '../../src/core/matrix.ts';
import type { CacheMode } from '../../src/core/plan.ts';
import { OpenAICompatibleProvider } from '../../src/providers/openai-compatible.ts';
import { ProviderRegistry } from '../../src/providers/registry.ts';
import { batchSettings } from '../../src/suite/batch-plan.ts';

const FILE = '/p/evals/.llm-evals.config.yml';
const endpoint = (name: string, batch: boolean, batchDiscount?: number) =>
  new OpenAICompatibleProvider(name, {
    baseUrl: 'http://127.0.0.1:9/v1',
    models: [{ model: 'm' }],
    ...(batch ? { batch } : {}),
    ...(batchDiscount !== undefined ? { batchDiscount } : {}),
  });
const registry = new ProviderRegistry([
  endpoint('openai', true),
  endpoint('cheap', true, 0.6),
  endpoint('plain', false),
]);
const contender = (provider: string) => ({ provider }) as Contender;
const settings = (providers: string[], cache: CacheMode | undefined = 'read', cases = 10) =>
  batchSettings({ registry, file: FILE }, providers.map(contender), [30, 600], cache, {
    dataset: 'd',
    cases,
  });

describe('batchSettings (--batch at plan time)', () => {
  it('reads the cache, starts every experiment at once, and keeps each endpoint discount', () => {
    expect(settings(['openai', 'cheap', 'openai'])).toEqual({
      batch: { poll: [30, 600], discounts: { openai: 0.5, cheap: 0.6 } },
      cache: 'read',
      concurrency: 0,
    });
  });

  it.each([
    [['openai', 'plain'], 'read', 10, /--batch: the endpoint "plain" has no batch API/],
    [['plus'], 'read', 10, /--batch: the endpoint "plus" has no batch API/],
    [['openai'], 'refresh', 10, /--batch: cannot go with --no-cache/],
    [['openai'], 'only', 10, /--batch: cannot go with --cache-only/],
    [
      ['openai'],
      'read',
      50_001,
      /the dataset "d" has 50001 cases, and one batch holds at most 50000 requests/,
    ],
  ] as const)('refuses %j with cache %s and %i cases', (providers, cache, cases, message) => {
    expect(() => settings([...providers], cache, cases)).toThrow(message);
  });
});
