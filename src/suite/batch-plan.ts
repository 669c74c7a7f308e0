import type { BatchSettings } from '../core/batch.ts';
import type { Contender } from '../core/matrix.ts';
import type { CacheMode } from '../core/plan.ts';
import { ConfigError, quote } from '../errors.ts';
import { batchProvider } from '../providers/batch.ts';
import type { ProviderRegistry } from '../providers/registry.ts';

/** The most requests one batch may hold (OpenAI's limit). */
export const MAX_BATCH_REQUESTS = 50_000;

/**
 * A `--batch` run's settings: the reply cache read (the batches' replies land there and the cases find them), each
 * provider's share off the price, and every experiment started at once, so their batches wait side by side rather
 * than `-j` at a time. Refuses, before anything is sent, a contender whose endpoint has no batch API, an experiment
 * too big for one batch, and `--no-cache`, which would call every case again after its batch.
 */
export function batchSettings(
  suite: { registry: ProviderRegistry; file: string },
  contenders: readonly Contender[],
  poll: [number, number],
  cache: CacheMode | undefined,
  largest: { dataset: string; cases: number },
): { batch: BatchSettings; cache: CacheMode; concurrency: number } {
  if (cache === 'refresh' || cache === 'only') {
    const flag = cache === 'refresh' ? '--no-cache' : '--cache-only';
    throw new ConfigError(
      undefined,
      '--batch',
      `cannot go with ${flag}: a batch's replies reach the cases through the reply cache`,
    );
  }
  if (largest.cases > MAX_BATCH_REQUESTS) {
    const problem =
      `the dataset ${quote(largest.dataset)} has ${largest.cases} cases, and one batch holds at most ` +
      `${MAX_BATCH_REQUESTS} requests; select fewer with -c or -d`;
    throw new ConfigError(undefined, '--batch', problem);
  }
  const discounts: Record<string, number> = {};
  for (const name of new Set(contenders.map((c) => c.provider))) {
    const provider = batchProvider(suite.registry.get(name));
    if (!provider) {
      const problem =
        `the endpoint ${quote(name)} has no batch API: only an OpenAI-compatible endpoint whose section says ` +
        '`batch: true` (its server serves /v1/files and /v1/batches) can take one; leave it out with -m, or drop --batch';
      throw new ConfigError(suite.file, '--batch', problem);
    }
    discounts[name] = provider.provider.batchDiscount;
  }
  return { batch: { poll, discounts }, cache: 'read', concurrency: 0 };
}
