import { z } from 'zod';
import type { ModelSettings } from '../api/types.ts';

/** A rate limit in a plan: `burst` calls at once, then `perMinute`, evenly spaced. */
export const RateLimitSchema = z.object({ burst: z.number(), perMinute: z.number() });
/** A rate limit in a plan: `burst` calls at once, then `perMinute`, evenly spaced. */
export type RateLimit = z.infer<typeof RateLimitSchema>;

/** One lineup entry after defaults and overrides, before its lists multiply. */
export interface LineupEntry {
  id: string;
  provider: string;
  requestType: string;
  /** The name the provider is asked for. */
  model: string;
  effort: string[];
  temperature: (number | null)[];
  maxTokens: number | null;
  /** Keys of the rate limits this entry's calls wait on. */
  limits: string[];
}

const ContenderFields = z.object({
  /** Unique within a run, such as `fake:fake/echo effort=low t=0.1`: the provider keeps a direct id and a routed one apart. */
  key: z.string(),
  id: z.string(),
  provider: z.string(),
  model: z.string(),
  /** `default` sends none. */
  effort: z.string(),
  temperature: z.number().nullable(),
  maxTokens: z.number().nullable(),
  /** Keys of the rate limits its calls wait on. */
  limits: z.array(z.string()),
  /** Which of `--repeat N` passes this is (1..N); absent without repeats. Standings merge a contender's repeats. */
  repeat: z.number().int().positive().optional(),
  /** The seed sent to providers that take one, so a repeat can be run again alike; the repeat's number. */
  seed: z.number().int().optional(),
});
/** One model at one effort, temperature and token budget, through one provider: a column of the leaderboard. */
export const ContenderSchema = ContenderFields.extend({
  /**
   * `compare --pairwise A B`: on B, the contender A whose reply to the same case the judge compares with B's, in both
   * orders. Data like the rest, so any worker that runs B's cases knows it.
   */
  pairwiseWith: ContenderFields.optional(),
});
/** One model at one effort, temperature and token budget, through one provider: a column of the leaderboard. */
export type Contender = z.infer<typeof ContenderSchema>;

/** The settings a contender's calls send (unset: sent not at all), as the model the adapter or a judge holds has them. */
export function contenderSettings(c: Contender): ModelSettings {
  return {
    ...(c.effort !== 'default' ? { effort: c.effort } : {}),
    ...(c.temperature !== null ? { temperature: c.temperature } : {}),
    ...(c.maxTokens !== null ? { maxTokens: c.maxTokens } : {}),
    ...(c.seed !== undefined ? { seed: c.seed } : {}),
  };
}

/** One contender over one dataset's selected cases. */
export const ExperimentSchema = z.object({
  /** Unique within a run and safe in a workflow id. */
  id: z.string(),
  contender: z.string(),
  dataset: z.string(),
  caseKeys: z.array(z.string()),
});
/** One contender over one dataset's selected cases. */
export type Experiment = z.infer<typeof ExperimentSchema>;

/** Names a contender by its provider, id and the settings that tell it apart. */
export function contenderKey(
  c: Pick<Contender, 'provider' | 'id' | 'effort' | 'temperature' | 'maxTokens'>,
): string {
  const parts = [`${c.provider}:${c.id}`, `effort=${c.effort}`];
  if (c.temperature !== null) parts.push(`t=${c.temperature}`);
  if (c.maxTokens !== null) parts.push(`max=${c.maxTokens}`);
  return parts.join(' ');
}

/** Multiplies each entry's effort and temperature lists into contenders, in lineup order, without duplicates. */
export function expandContenders(entries: readonly LineupEntry[]): Contender[] {
  const seen = new Set<string>();
  const contenders: Contender[] = [];
  for (const entry of entries) {
    for (const effort of entry.effort) {
      for (const temperature of entry.temperature) {
        const base = {
          provider: entry.provider,
          id: entry.id,
          effort,
          temperature,
          maxTokens: entry.maxTokens,
        };
        const key = contenderKey(base);
        if (seen.has(key)) continue;
        seen.add(key);
        contenders.push({ ...base, key, model: entry.model, limits: entry.limits });
      }
    }
  }
  return contenders;
}

/**
 * `--repeat N`: each contender N times, as contenders of their own (`… #2`), each seeded with its repeat's number, so
 * every case runs N times per contender through the engine unchanged; N ≤ 1 leaves the list as it is.
 */
export function repeatContenders(contenders: readonly Contender[], times: number | undefined): Contender[] {
  if (!times || times <= 1) return [...contenders];
  return contenders.flatMap((c) =>
    Array.from({ length: times }, (_, i) => ({
      ...c,
      key: `${c.key} #${i + 1}`,
      repeat: i + 1,
      seed: i + 1,
    })),
  );
}

/** The contender a repeat belongs to: the same settings without the repeat's number and seed. */
export function withoutRepeat(c: Contender): Contender {
  const { repeat: _, seed: __, ...rest } = c;
  return { ...rest, key: contenderKey(c) };
}

/** One experiment per contender × dataset, dataset by dataset, each with its selected case keys; empty datasets are left out. */
export function planExperiments(
  contenders: readonly Contender[],
  datasets: readonly { name: string; caseKeys: string[] }[],
): Experiment[] {
  const experiments: Experiment[] = [];
  for (const dataset of datasets) {
    if (dataset.caseKeys.length === 0) continue;
    for (const contender of contenders) {
      experiments.push({
        id: `${String(experiments.length + 1).padStart(3, '0')}-${dataset.name.replace(/[^A-Za-z0-9._-]/g, '_')}`,
        contender: contender.key,
        dataset: dataset.name,
        caseKeys: dataset.caseKeys,
      });
    }
  }
  return experiments;
}
