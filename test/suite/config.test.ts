import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeProvider } from '../../src/api/testing.ts';
import { ConfigError } from '../../src/errors.ts';
import { builtinProviders } from '../../src/providers/builtin.ts';
import { ProviderRegistry } from '../../src/providers/registry.ts';
import { checkConfig, readConfig, suiteCodeKeys, type SuiteConfig } from '../../src/suite/config.ts';
import { TRACKER_SECTIONS } from '../../src/suite/load.ts';
import { TempDirs } from '../helpers/suite-dir.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const registry = new ProviderRegistry([
  ...builtinProviders(),
  new FakeProvider({ models: { echo: 'echo' } }),
]);

function writeConfig(yaml: string): string {
  const file = join(dirs.os(), '.llm-evals.config.yml');
  writeFileSync(file, yaml);
  return file;
}

/** Reads and checks a lineup file as `loadSuite` does. */
function load(yaml: string): SuiteConfig {
  return checkConfig(readConfig(writeConfig(yaml)), registry.names(), TRACKER_SECTIONS);
}

/** The ConfigError that loading `yaml` throws, with the file it was written to. */
function failure(
  yaml: string,
  read: (file: string) => unknown = (file) =>
    checkConfig(readConfig(file), registry.names(), TRACKER_SECTIONS),
): { error: ConfigError; file: string } {
  const file = writeConfig(yaml);
  try {
    read(file);
  } catch (error) {
    if (error instanceof ConfigError) return { error, file };
    throw error;
  }
  throw new Error(`expected a ConfigError for:\n${yaml}`);
}

const RT = 'request_types: [prompt]\n';

describe('checkConfig: a good lineup', () => {
  it('parses the fixed keys, the provider sections and the tracker sections', () => {
    const config = load(`
project: demo
request_types: [prompt, typesafe]
defaults: { effort: low, temperature: [0, 0.7], max_tokens: 500, parallelism: 3 }
results: { autosave: false, destination: out, display: both }
tracker: logfire
weighted_score: { weights: { score: 5, cost: -2 } }
errors: { abort_after: { total: 10, percent: 50 } }
openrouter:
  rate_limit: { burst: 5, per_minute: 60 }
  vendors:
    openai:
      models: [gpt-4.1-mini, { model: gpt-5, effort: [low, high] }]
typesafe:
  models: [jev-latest]
logfire: { include_replies: true }
`);
    expect(config.values).toEqual({
      project: 'demo',
      request_types: ['prompt', 'typesafe'],
      defaults: { effort: ['low'], temperature: [0, 0.7], max_tokens: 500, parallelism: 3 },
      results: { autosave: false, destination: 'out', display: 'both' },
      tracker: 'logfire',
      weighted_score: { weights: { score: 5, cost: -2 } },
      errors: { abort_after: { total: 10, percent: 50 } },
    });
    expect(config.providers).toEqual({
      openrouter: {
        rate_limit: { burst: 5, per_minute: 60 },
        vendors: {
          openai: { models: [{ model: 'gpt-4.1-mini' }, { model: 'gpt-5', effort: ['low', 'high'] }] },
        },
      },
      typesafe: { models: [{ model: 'jev-latest' }] },
    });
    expect(config.trackers).toEqual({ logfire: { include_replies: true } });
  });

  it('reads an empty provider section as no models', () => {
    expect(load(`${RT}fake:\n`).providers).toEqual({ fake: {} });
  });

  it('knows the providers registered by the suite', () => {
    expect(load(`${RT}fake:\n  models: [echo]\n`).providers.fake).toEqual({ models: [{ model: 'echo' }] });
  });
});

describe('checkConfig: bad input names the file, the key and the value', () => {
  it.each([
    ['an unknown top-level key', `${RT}colour: red\n`, 'colour', /unknown key or provider.*got "red"/],
    ['a misspelt fixed key', `${RT}request_type: [prompt]\n`, 'request_type', /unknown key or provider/],
    [
      'an unknown provider',
      `${RT}anthropic:\n  models: [claude]\n`,
      'anthropic',
      /providers: openrouter, typesafe, fake/,
    ],
    [
      'an unknown key in defaults',
      `${RT}defaults: { effrot: low }\n`,
      'defaults.effrot',
      /unknown key, got "low"/,
    ],
    [
      'an unknown key in results',
      `${RT}results: { display: tui, open: true }\n`,
      'results.open',
      /unknown key, got true/,
    ],
    ['an unknown key in a provider section', `${RT}fake:\n  speed: 3\n`, 'fake.speed', /unknown key, got 3/],
    [
      'an unknown key in a vendor',
      `${RT}openrouter:\n  vendors:\n    openai:\n      region: eu\n      models: [x]\n`,
      'openrouter.vendors.openai.region',
      /unknown key, got "eu"/,
    ],
    [
      'an unknown key in a model entry',
      `${RT}fake:\n  models:\n    - echo\n    - { model: parrot, colour: red }\n`,
      'fake.models[1].colour',
      /unknown key, got "red"/,
    ],
    [
      'an unknown key in a vendor’s model entry',
      `${RT}openrouter:\n  vendors:\n    openai:\n      models: [{ model: x, temprature: 1 }]\n`,
      'openrouter.vendors.openai.models[0].temprature',
      /unknown key, got 1/,
    ],
    ['the old top-level vendors:', `${RT}vendors:\n  openai: [gpt-4.1]\n`, 'vendors', /upgrade-config/],
    ['the old top-level direct:', `${RT}direct:\n  typesafe: [jev-latest]\n`, 'direct', /upgrade-config/],
    ['missing request_types', `project: x\n`, 'request_types', /required.*prompt, typesafe/],
    ['an empty file', ``, 'request_types', /required/],
    ['empty request_types', `request_types: []\n`, 'request_types', /at least one of prompt, typesafe/],
    ['request_types with no value', `request_types:\n`, 'request_types', /at least one of prompt, typesafe/],
    [
      'request_types not a list',
      `request_types: prompt\n`,
      'request_types',
      /must be a list such as \[prompt\], got "prompt"/,
    ],
    [
      'an unknown request type',
      `request_types: [prompt, smoke]\n`,
      'request_types[1]',
      /unknown request type "smoke"/,
    ],
    [
      'a provider rate_limit with burst only',
      `${RT}fake:\n  rate_limit: { burst: 5 }\n`,
      'fake.rate_limit',
      /needs both burst and per_minute, got \{"burst":5\}/,
    ],
    [
      'a model rate_limit with per_minute only',
      `${RT}fake:\n  models:\n    - { model: echo, rate_limit: { per_minute: 60 } }\n`,
      'fake.models[0].rate_limit',
      /needs both burst and per_minute, got \{"per_minute":60\}/,
    ],
    [
      'a vendor rate_limit with one number',
      `${RT}openrouter:\n  vendors:\n    openai:\n      rate_limit: { burst: 1 }\n      models: [x]\n`,
      'openrouter.vendors.openai.rate_limit',
      /needs both burst and per_minute/,
    ],
    ['a rate_limit that is a number', `${RT}fake:\n  rate_limit: 60\n`, 'fake.rate_limit', /got 60/],
    ['a temperature out of range', `${RT}defaults: { temperature: 5 }\n`, 'defaults.temperature', /got 5$/],
    [
      'a temperature out of range in a list',
      `${RT}defaults: { temperature: [0.1, 3] }\n`,
      'defaults.temperature[1]',
      /got 3$/,
    ],
    [
      'an effort that is not a string',
      `${RT}fake:\n  models: [{ model: echo, effort: 3 }]\n`,
      'fake.models[0].effort',
      /got 3$/,
    ],
    [
      'a model entry without a model',
      `${RT}fake:\n  models: [{ effort: low }]\n`,
      'fake.models[0].model',
      /required/,
    ],
    ['an unknown display', `${RT}results: { display: web }\n`, 'results.display', /got "web"/],
    [
      'abort_after without total',
      `${RT}errors: { abort_after: { percent: 5 } }\n`,
      'errors.abort_after.total',
      /required/,
    ],
  ])('%s', (_, yaml, key, problem) => {
    const { error, file } = failure(yaml);
    expect(error.file).toBe(file);
    expect(error.key).toBe(key);
    expect(error.problem).toMatch(problem);
    expect(error.message).toBe(`${file}: ${key}: ${error.problem}`);
    expect(error.exitCode).toBe(2);
  });

  it.each([
    ['a duplicate key', `${RT}project: a\nproject: b\n`, 3, /Map keys must be unique/],
    ['an unclosed quote', `${RT}project: "x\n`, 3, /Missing closing "quote/],
    ['a bad indent', `${RT}defaults:\n  effort: low\n   temperature: 1\n`, 3, /Nested mappings/],
  ])('names the line of malformed YAML: %s', (_, yaml, line, problem) => {
    const { error, file } = failure(yaml);
    expect(error.file).toBe(file);
    expect(error.key).toBe(`line ${line}`);
    expect(error.problem).toMatch(/^malformed YAML: /);
    expect(error.problem).toMatch(problem);
    expect(error.message.startsWith(`${file}: line ${line}: malformed YAML: `)).toBe(true);
  });

  it('refuses a top level that is not a mapping', () => {
    const { error, file } = failure(`- prompt\n- typesafe\n`);
    expect(error.message).toMatch(
      new RegExp(`^${file}: expected a mapping of keys at the top, got \\["prompt","typesafe"\\]$`),
    );
  });

  it('names an unreadable file', () => {
    const file = join(dirs.os(), 'missing.yml');
    expect(() => readConfig(file)).toThrow(ConfigError);
    expect(() => readConfig(file)).toThrow(new RegExp(`^${file}: cannot be read`));
  });
});

describe('suiteCodeKeys', () => {
  it.each([
    [
      'one import',
      `import: ./lib/x.ts\nadapter: A\nscorer: S\n`,
      { imports: ['./lib/x.ts'], adapter: 'A', scorer: 'S' },
    ],
    [
      'a list of imports',
      `import: [pkg, ./x.ts]\n`,
      { imports: ['pkg', './x.ts'], adapter: undefined, scorer: undefined },
    ],
    ['none', `${RT}`, { imports: [], adapter: undefined, scorer: undefined }],
  ])('reads %s', (_, yaml, want) => {
    expect(suiteCodeKeys(readConfig(writeConfig(yaml)))).toEqual(want);
  });

  it.each([
    ['an empty import', `import: ""\n`, 'import', /got ""/],
    ['an adapter that is not a name', `adapter: 3\n`, 'adapter', /got 3/],
  ])('refuses %s', (_, yaml, key, problem) => {
    const { error, file } = failure(yaml, (f) => suiteCodeKeys(readConfig(f)));
    expect(error.file).toBe(file);
    expect(error.key).toBe(key);
    expect(error.problem).toMatch(problem);
  });
});
