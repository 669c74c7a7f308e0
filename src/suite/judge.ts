import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Contender } from '../core/matrix.ts';
import { ConfigError, quote } from '../errors.ts';
import { judgeSpec, type JudgeSpec } from '../judge/config.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { SuiteConfig } from './config.ts';
import { readLineup } from './lineup.ts';

/** The judge of a lineup: its spec and, per panel member, the contender its calls go out as. */
export interface LineupJudge {
  spec: JudgeSpec;
  /** By the model's id as the lineup names it (`fake/judge`, `openai/gpt-4o-mini`). */
  contenders: Map<string, Contender>;
}

/**
 * The contender a judge model's calls go out as, through the same gate and cache as the lineup's: `<section>/<name>`
 * names the model at an endpoint section of the lineup whether or not its `models:` list holds it; any other id goes
 * to the provider that serves it (OpenRouter, a helper's). Its rate-limit keys are those a lineup entry would have:
 * the ones a limit counts.
 */
export function judgeContender(
  config: SuiteConfig,
  registry: ProviderRegistry,
  id: string,
  key: string,
): Contender {
  const slash = id.indexOf('/');
  const section = slash > 0 ? id.slice(0, slash) : undefined;
  const endpoint = section !== undefined && section in config.endpoints ? registry.get(section) : undefined;
  const provider = endpoint ?? registry.forId(id);
  if (!provider)
    throw new ConfigError(config.file, key, `no provider of the lineup serves the judge model ${quote(id)}`);
  // A routed provider (OpenRouter) names models `<vendor>/<model>`: a bare name is a model no provider serves.
  if (!endpoint && provider.prefix === '' && slash <= 0)
    throw new ConfigError(
      config.file,
      key,
      `no provider of the lineup serves the judge model ${quote(id)}: name an endpoint section's model ` +
        `<section>/<model>, or a routed one <vendor>/<model>`,
    );
  const model = endpoint
    ? id.slice(slash + 1)
    : provider.prefix !== ''
      ? id.slice(provider.prefix.length)
      : id;
  if (model === '') throw new ConfigError(config.file, key, `${quote(id)} names no model`);
  const vendor = provider.prefix === '' ? id.split('/')[0] : undefined;
  // Only the keys a rate limit or max_concurrency counts, as a lineup entry's: a call on any other key reads the gate's
  // shared look instead of asking it by an update, a round trip through Temporal per verdict.
  const counted = readLineup({ config, registry });
  const limits = [
    provider.name,
    ...(vendor ? [`${provider.name}/${vendor}`] : []),
    `${provider.name}:${id}`,
  ].filter((k) => k in counted.limits || k in counted.inFlight);
  return {
    key: `${provider.name}:${id} judge`,
    id,
    provider: provider.name,
    model,
    effort: 'default',
    temperature: null,
    maxTokens: null,
    limits,
  };
}

/** The lineup's `judge:` section ready to run (its rubric file read), or `undefined` without one. */
export function lineupJudge(config: SuiteConfig, registry: ProviderRegistry): LineupJudge | undefined {
  const judge = config.values.judge;
  if (!judge) return undefined;
  let rubric = judge.rubric;
  if (rubric === undefined) {
    const file = resolve(dirname(config.file), judge.rubric_file!);
    try {
      rubric = readFileSync(file, 'utf8');
    } catch (error) {
      throw new ConfigError(
        config.file,
        'judge.rubric_file',
        `${quote(judge.rubric_file)} cannot be read (${(error as Error).message})`,
      );
    }
    if (rubric.trim() === '')
      throw new ConfigError(config.file, 'judge.rubric_file', `${quote(judge.rubric_file)} is empty`);
  }
  const spec = judgeSpec(judge, rubric);
  const keyOf = (i: number) => (judge.models ? `judge.models[${i}]` : 'judge.model');
  return {
    spec,
    contenders: new Map(spec.models.map((id, i) => [id, judgeContender(config, registry, id, keyOf(i))])),
  };
}

/** The judge models to check like the contenders (key set, model served), each with the key that names it. */
export function judgesToCheck(
  config: SuiteConfig,
  judges: ReadonlyMap<string, Contender>,
): (Contender & { configKey: string })[] {
  const panel = config.values.judge?.models;
  return [...judges.values()].map((c, i) => ({
    ...c,
    configKey: panel ? `judge.models[${i}]` : config.values.judge ? 'judge.model' : 'JudgeScorer.models',
  }));
}
