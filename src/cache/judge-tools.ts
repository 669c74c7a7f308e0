import { completionRequestOf } from '../api/conversation.ts';
import type { ScorerTools } from '../api/scorer.ts';
import type { Model, ProviderResponse } from '../api/types.ts';
import { contenderSettings, type Contender } from '../core/matrix.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import { replyKeyOf } from './key.ts';
import type { ReplyStore } from './store.ts';

/** What the judge's calls of a rescore took: calls paid, verdicts the reply cache gave, dollars. */
export interface JudgeCalls {
  calls: number;
  cached: number;
  usd: number;
}

/**
 * The judge models as a rescore lends them to the scorer, outside any run: each verdict is looked up in the reply cache
 * under the key the run's judge used (the same model, request and sample), so an unchanged rubric makes no call; a
 * verdict it lacks is asked of the provider and kept.
 */
export function cachedJudgeTools(
  judges: ReadonlyMap<string, Contender>,
  registry: ProviderRegistry,
  store: Pick<ReplyStore, 'get' | 'put'>,
  runId: string,
  counts: JudgeCalls,
): ScorerTools {
  return {
    judge: (id, sample): Model => {
      const judge = judges.get(id);
      const provider = judge && registry.get(judge.provider);
      if (!judge || !provider) throw new Error(`the judge model ${id} is not one the lineup reaches`);
      const contender = { ...judge, repeat: sample };
      const settings = contenderSettings(contender);
      const model = { id: judge.id, name: judge.model, provider: judge.provider, ...settings };
      return {
        ...model,
        complete: async (asked): Promise<ProviderResponse> => {
          const request = completionRequestOf(asked);
          const key = replyKeyOf(model, contender, provider, request);
          const entry = await store.get(key);
          if (entry) {
            counts.cached++;
            return entry.response;
          }
          const started = performance.now();
          counts.calls++;
          const response = await provider.complete({ id: judge.id, name: judge.model, ...settings }, request);
          counts.usd += response.usage.costUsd ?? 0;
          await store
            .put({
              version: 1,
              key,
              storedAt: new Date().toISOString(),
              provider: provider.name,
              model: judge.id,
              response,
              latency: (performance.now() - started) / 1000,
              run: runId,
            })
            // A verdict that could not be kept is asked again next time; this rescore has it all the same.
            .catch(() => undefined);
          return response;
        },
      };
    },
  };
}
