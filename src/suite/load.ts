import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseEnv } from 'node:util';
import { Adapter } from '../api/adapter.ts';
import { Scorer } from '../api/scorer.ts';
import type { Provider } from '../api/types.ts';
import { ConfigError, quote } from '../errors.ts';
import { builtinProviders } from '../providers/builtin.ts';
import { OpenAICompatibleProvider } from '../providers/openai-compatible.ts';
import { ProviderRegistry } from '../providers/registry.ts';
import { DEFAULT_CASES_GLOB } from './cases.ts';
import type { EndpointSection } from './config-schema.ts';
import { checkConfig, readConfig, suiteCodeKeys, type SuiteConfig } from './config.ts';
import type { SuiteDefinition } from './define.ts';
import { CONFIG_NAME, type Discovery } from './discover.ts';
import { importModule } from './import-module.ts';
import type { TrackerDefinition } from '../trackers/types.ts';
import { JudgeScorer } from '../scorers/judge.ts';
import { TrajectoryScorer } from '../scorers/trajectory-scorer.ts';
import type { Contender } from '../core/matrix.ts';
import { judgeContender, lineupJudge } from './judge.ts';

/** Trackers a lineup may configure with a section of their own. */
export const TRACKER_SECTIONS = ['local', 'logfire', 'braintrust'];

/** A suite ready to plan and run: its config, code and providers, loaded in this process. */
export interface LoadedSuite {
  name: string;
  description?: string;
  discovery: Discovery;
  root: string;
  projectDir: string;
  config: SuiteConfig;
  adapter: Adapter;
  scorer: Scorer;
  /** The judge models the scorer may call (the lineup's `judge:`, a helper's JudgeScorer), by id as named. */
  judges: Map<string, Contender>;
  registry: ProviderRegistry;
  casesGlob: string;
  envFiles: string[];
  beforeRun?: () => void | Promise<void>;
  /** The helper's own trackers, registered after the built-in ones. */
  trackers: TrackerDefinition[];
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

async function importHelper(file: string): Promise<SuiteDefinition> {
  let module: Record<string, unknown>;
  try {
    module = await importModule(pathToFileURL(file).href);
  } catch (error) {
    throw new ConfigError(file, undefined, `the helper failed to load: ${message(error)}`, { cause: error });
  }
  const definition = module.default;
  if (!definition || typeof definition !== 'object') {
    throw new ConfigError(file, 'export default', 'expected `export default defineSuite({ ... })`');
  }
  return definition;
}

function resolveSpecifier(spec: string, projectDir: string): string {
  if (spec.startsWith('.') || isAbsolute(spec)) return pathToFileURL(resolve(projectDir, spec)).href;
  return pathToFileURL(createRequire(join(projectDir, 'package.json')).resolve(spec)).href;
}

async function importModules(config: string, specs: string[], projectDir: string) {
  const modules: { spec: string; exports: Record<string, unknown> }[] = [];
  for (const spec of specs) {
    try {
      modules.push({
        spec,
        exports: await importModule(resolveSpecifier(spec, projectDir)),
      });
    } catch (error) {
      throw new ConfigError(config, 'import', `${quote(spec)} could not be imported: ${message(error)}`, {
        cause: error,
      });
    }
  }
  return modules;
}

function instantiate<T>(
  config: string,
  key: 'adapter' | 'scorer',
  name: string,
  modules: { spec: string; exports: Record<string, unknown> }[],
): T {
  const found = modules.find((m) => name in m.exports);
  if (!found) {
    const where = modules.length ? modules.map((m) => m.spec).join(', ') : 'nothing (no `import:` key)';
    throw new ConfigError(config, key, `${quote(name)} is not exported by ${where}`);
  }
  const Exported = found.exports[name];
  if (typeof Exported !== 'function') throw new ConfigError(config, key, `${quote(name)} is not a class`);
  try {
    return new (Exported as new () => T)();
  } catch (error) {
    throw new ConfigError(config, key, `${quote(name)} could not be created: ${message(error)}`, {
      cause: error,
    });
  }
}

/** The provider a lineup's endpoint section declares: ids `<name>/<model>`, request type `prompt`. */
export function endpointProvider(name: string, section: EndpointSection): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider(name, {
    baseUrl: section.base_url,
    ...(section.api_key_env ? { apiKeyEnv: section.api_key_env } : {}),
    ...(section.prices ? { prices: section.prices } : {}),
    ...(section.batch ? { batch: true } : {}),
    ...(section.batch_discount !== undefined ? { batchDiscount: section.batch_discount } : {}),
    models: (section.models ?? []).map(({ model, prices }) => ({ model, ...(prices ? { prices } : {}) })),
  });
}

/** Loads env files without overriding variables already set; a missing file is skipped. */
export function loadEnvFiles(
  root: string,
  files: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): void {
  for (const file of files) {
    const path = resolve(root, file);
    if (!existsSync(path)) continue;
    for (const [key, value] of Object.entries(parseEnv(readFileSync(path, 'utf8')))) {
      if (env[key] === undefined) env[key] = value;
    }
  }
}

/** Loads what discovery found: the helper first, then the lineup's `import:` keys fill what it left unset. */
export async function loadSuite(discovery: Discovery): Promise<LoadedSuite> {
  const helper = discovery.helperFile ? await importHelper(discovery.helperFile) : {};
  const root = helper.root ? resolve(discovery.evalsDir, helper.root) : discovery.evalsDir;
  const configFile = discovery.configFile ?? join(root, CONFIG_NAME);
  if (!existsSync(configFile)) {
    throw new ConfigError(configFile, 'request_types', 'required, but the lineup file is missing');
  }
  const raw = readConfig(configFile);
  const code = suiteCodeKeys(raw);
  const modules = await importModules(configFile, code.imports, discovery.projectDir);
  const registry = new ProviderRegistry(builtinProviders());
  for (const provider of helper.providers ?? []) registry.register(provider);
  for (const m of modules) {
    for (const provider of (m.exports.providers as Provider[] | undefined) ?? []) registry.register(provider);
  }
  const trackers = helper.trackers ?? [];
  for (const t of trackers) {
    if (!t || typeof t.name !== 'string' || typeof t.create !== 'function') {
      throw new ConfigError(
        discovery.helperFile,
        'trackers',
        'each tracker needs a name and create(context) (see TrackerDefinition)',
      );
    }
    if (TRACKER_SECTIONS.includes(t.name) || t.name === 'none') {
      throw new ConfigError(
        discovery.helperFile,
        'trackers',
        `the name ${quote(t.name)} is taken by a built-in tracker`,
      );
    }
  }
  const config = checkConfig(raw, registry.names(), [...TRACKER_SECTIONS, ...trackers.map((t) => t.name)]);
  // Registered last, so an endpoint is asked first for an id under its own prefix (`-m local/…`).
  for (const [name, section] of Object.entries(config.endpoints)) {
    registry.register(endpointProvider(name, section));
  }
  const adapter =
    helper.adapter ??
    (code.adapter ? instantiate<Adapter>(configFile, 'adapter', code.adapter, modules) : undefined);
  const ownScorer =
    helper.scorer ??
    (code.scorer ? instantiate<Scorer>(configFile, 'scorer', code.scorer, modules) : undefined);
  if (!adapter)
    throw new ConfigError(
      configFile,
      'adapter',
      'required: neither the helper nor the lineup names an adapter',
    );
  const judge = lineupJudge(config, registry);
  // The lineup's trajectory scores the tool calls, the helper's scorer (a field scorer) the final answer.
  const lineupTrajectory = config.values.trajectory;
  const own = lineupTrajectory
    ? new TrajectoryScorer({
        ...(lineupTrajectory.mode ? { mode: lineupTrajectory.mode } : {}),
        ...(lineupTrajectory.args ? { args: lineupTrajectory.args } : {}),
        ...(ownScorer ? { answer: ownScorer } : {}),
      })
    : ownScorer;
  // The lineup's judge joins the helper's scorer, or is the scorer when the helper has none.
  const scorer = judge
    ? new JudgeScorer({
        models: judge.spec.models,
        rubric: judge.spec.rubric,
        scale: config.values.judge!.scale,
        reference: judge.spec.reference,
        samples: judge.spec.samples,
        ...(own ? { inner: own } : {}),
      })
    : own;
  if (!scorer)
    throw new ConfigError(
      configFile,
      'scorer',
      'required: neither the helper nor the lineup names a scorer (nor a judge:)',
    );
  const judges = judge?.contenders ?? new Map<string, Contender>();
  // A helper's own JudgeScorer names its models in code: each must be one the lineup can reach.
  if (scorer instanceof JudgeScorer && !judge)
    for (const id of scorer.options.models)
      judges.set(id, judgeContender(config, registry, id, 'JudgeScorer.models'));
  if (!(adapter instanceof Adapter) && typeof (adapter as Partial<Adapter>).call !== 'function') {
    throw new ConfigError(configFile, 'adapter', 'has no call(case, model) method');
  }
  if (!(scorer instanceof Scorer) && typeof (scorer as Partial<Scorer>).metrics !== 'function') {
    throw new ConfigError(configFile, 'scorer', 'has no metrics() method');
  }
  return {
    name: helper.name ?? config.values.project ?? basename(discovery.projectDir),
    description: helper.description,
    discovery,
    root,
    projectDir: discovery.projectDir,
    config,
    adapter,
    scorer,
    judges,
    registry,
    casesGlob: helper.cases ?? DEFAULT_CASES_GLOB,
    envFiles: helper.envFiles ?? [],
    beforeRun: helper.beforeRun,
    trackers,
  };
}

/**
 * The suite with its lineup read again from disk, for a long-lived worker planning a scheduled run: the lineup as it
 * is now, its endpoint sections (re)registered; the suite's code stays what the process loaded.
 */
export function reloadLineup(suite: LoadedSuite): LoadedSuite {
  const endpointsBefore = new Set(Object.keys(suite.config.endpoints));
  const providerNames = suite.registry.names().filter((name) => !endpointsBefore.has(name));
  const config = checkConfig(readConfig(suite.config.file), providerNames, TRACKER_SECTIONS);
  for (const [name, section] of Object.entries(config.endpoints)) {
    suite.registry.register(endpointProvider(name, section));
  }
  return { ...suite, config };
}
