import type { Json } from '../api/types.ts';
import { expandContenders, planExperiments, repeatContenders } from '../core/matrix.ts';
import type { CacheMode, Plan } from '../core/plan.ts';
import { weightProblems } from '../core/weights.ts';
import { ConfigError, quote } from '../errors.ts';
import { batchSettings } from './batch-plan.ts';
import type { LoadedCase } from './cases.ts';
import { readLineup, type Lineup, type SettingOverrides } from './lineup.ts';
import type { LoadedSuite } from './load.ts';

/** What the command line chose: models, overrides, parallelism, and the options to record. */
export interface PlanOptions {
  models?: string[];
  overrides?: SettingOverrides;
  parallelism?: number;
  concurrency: number;
  /** `--repeat N`: each case N times per contender. */
  repeat?: number;
  /** How the run uses the reply cache; none: calls everything and keeps the replies. */
  cache?: CacheMode;
  /** `--batch`: the waits between looks at a batch (seconds, first and last); none: calls go one by one. */
  batch?: [number, number];
  options?: Record<string, Json>;
}

/** Refuses, before any call, a weight on anything but the weightable columns and the scorer's metrics. */
export function checkWeights(
  file: string,
  weights: Record<string, unknown> | undefined,
  metricNames: readonly string[],
): void {
  const [first] = weightProblems(weights ?? {}, metricNames);
  if (first) {
    const problem = `${first.problem}, got ${quote(first.value)}`;
    throw new ConfigError(file, `weighted_score.weights.${first.key}`, problem);
  }
}

/**
 * Refuses a lineup that leaves no contender (every model refused, or none listed), saying why, so a run never
 * succeeds at comparing nothing.
 */
export function checkContenders(file: string, lineup: Lineup, models: readonly string[] = []): void {
  if (lineup.entries.length > 0) return;
  const where = models.length ? `-m ${models.join(' ')}` : 'the lineup';
  const problem = lineup.refused.length
    ? `no contender: ${where} has only refused models (${lineup.refused.map((r) => r.message).join('; ')})`
    : 'no contender: the lineup lists no model; add a provider section with models, such as ' +
      '`openrouter: { vendors: { openai: { models: [gpt-4.1-mini] } } }`, or pass -m';
  throw new ConfigError(file, models.length ? '-m' : undefined, problem);
}

/** The dataset with the most cases: the biggest experiment a contender makes of it. */
function largestDataset(datasets: readonly { name: string; caseKeys: string[] }[]) {
  const top = [...datasets].sort((a, b) => b.caseKeys.length - a.caseKeys.length)[0];
  return { dataset: top?.name ?? '', cases: top?.caseKeys.length ?? 0 };
}

/**
 * What every plan of a suite's cases holds whatever its contenders: the suite, its request types, the cases, and
 * each dataset's case keys (its experiments' share).
 */
export function planBasis(
  suite: LoadedSuite,
  cases: readonly LoadedCase[],
): Pick<Plan, 'suite' | 'requestTypes' | 'cases'> & { datasets: { name: string; caseKeys: string[] }[] } {
  const { config } = suite;
  return {
    suite: {
      name: suite.name,
      root: suite.root,
      projectDir: suite.projectDir,
      configFile: config.file,
      ...(suite.discovery.helperFile ? { helperFile: suite.discovery.helperFile } : {}),
    },
    requestTypes: [...config.values.request_types],
    cases: cases.map(({ key, id, dataset, variant, hash }) => ({ key, id, dataset, variant, hash })),
    datasets: [...new Set(cases.map((c) => c.dataset))].map((name) => ({
      name,
      caseKeys: cases.filter((c) => c.dataset === name).map((c) => c.key),
    })),
  };
}

/** Expands the lineup over the selected cases into a Plan: contenders × datasets, each an experiment. */
export function buildPlan(suite: LoadedSuite, cases: readonly LoadedCase[], options: PlanOptions): Plan {
  const { config } = suite;
  checkWeights(
    config.file,
    config.values.weighted_score?.weights,
    suite.scorer.metrics().map((m) => m.name),
  );
  const lineup = readLineup({
    config,
    registry: suite.registry,
    overrides: options.overrides,
    models: options.models,
  });
  checkContenders(config.file, lineup, options.models);
  const contenders = repeatContenders(expandContenders(lineup.entries), options.repeat);
  const { datasets, suite: planned, requestTypes, cases: listed } = planBasis(suite, cases);
  return {
    version: 1,
    suite: planned,
    requestTypes,
    contenders,
    refused: lineup.refused,
    cases: listed,
    experiments: planExperiments(contenders, datasets),
    limits: lineup.limits,
    inFlight: lineup.inFlight,
    settings: {
      parallelism: options.parallelism ?? config.values.defaults?.parallelism ?? 4,
      concurrency: options.concurrency,
      ...(options.repeat && options.repeat > 1 ? { repeat: options.repeat } : {}),
      ...(options.cache ? { cache: options.cache } : {}),
      ...(options.batch
        ? batchSettings(
            { registry: suite.registry, file: config.file },
            contenders,
            options.batch,
            options.cache,
            largestDataset(datasets),
          )
        : {}),
    },
    ...(config.values.weighted_score ? { weights: config.values.weighted_score.weights } : {}),
    ...(config.values.errors ? { abortAfter: config.values.errors.abort_after } : {}),
    options: options.options ?? {},
  };
}
