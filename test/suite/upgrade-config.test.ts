import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeProvider } from '../../src/api/testing.ts';
import { ConfigError } from '../../src/errors.ts';
import { builtinProviders } from '../../src/providers/builtin.ts';
import { ProviderRegistry } from '../../src/providers/registry.ts';
import { checkConfig, readConfig, type SuiteConfig } from '../../src/suite/config.ts';
import { TRACKER_SECTIONS } from '../../src/suite/load.ts';
import { upgradeConfig } from '../../src/suite/upgrade-config.ts';
import { TempDirs, TOY_SUITE } from '../helpers/suite-dir.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const registry = new ProviderRegistry([
  ...builtinProviders(),
  new FakeProvider({ models: { echo: 'echo' } }),
]);

/** Writes the text and loads it as `loadSuite` does: readConfig, then checkConfig against the real registry. */
function load(text: string): SuiteConfig {
  const file = join(dirs.os(), '.llm-evals.config.yml');
  writeFileSync(file, text);
  return checkConfig(readConfig(file), registry.names(), TRACKER_SECTIONS);
}

/** Every comment of a YAML text, without its `#` and spaces (none of these fixtures has a `#` inside a value). */
const comments = (text: string): string[] => [...text.matchAll(/#(.*)$/gm)].map((m) => m[1]!.trim());

const topKeys = (text: string): string[] => [...text.matchAll(/^([A-Za-z_]+):/gm)].map((m) => m[1]!);

/** The old form as the gem's earlier releases wrote it: comments everywhere, vendors and direct at the top. */
const OLD = `# evals/.llm-evals.config.yml: the lineup
project: my-evals            # the tracker project
request_types: [prompt]      # required: what the adapter sends

defaults:
  effort: default            # default sends none
  temperature: 0.1

# The models to compare, by vendor
vendors:                     # OpenRouter: every entry takes a prompt
  # Anthropic first
  anthropic:
    - model: claude-fable-5
    - model: claude-haiku-5.5
      effort: [default, low, high]   # a list expands into one contender per value
  openai:                    # no limit of its own
    - gpt-4.1-mini
  typesafe:
    - model: jev-router      # Jev on OpenRouter, a chat model

# A vendor's own API
direct:                      # one request type each
  typesafe:                  # request type "typesafe"
    - model: jev-latest
  fake:
    - echo

weighted_score:
  weights:
    score: 1                 # after the providers, to check the order holds
# the end
`;

describe('upgradeConfig: the old form', () => {
  const { text, changed, notes } = upgradeConfig(OLD);

  it('loads through the real config loader, with the ids the old form gave', () => {
    expect(changed).toBe(true);
    const config = load(text);
    const vendors = config.providers.openrouter!.vendors!;
    expect(Object.keys(vendors)).toEqual(['anthropic', 'openai', 'typesafe']);
    expect(vendors.anthropic!.models.map((m) => m.model)).toEqual(['claude-fable-5', 'claude-haiku-5.5']);
    expect(vendors.anthropic!.models[1]!.effort).toEqual(['default', 'low', 'high']);
    expect(vendors.openai!.models).toEqual([{ model: 'gpt-4.1-mini' }]);
    expect(config.providers.typesafe!.models).toEqual([{ model: 'jev-latest' }]);
    expect(config.providers.fake!.models).toEqual([{ model: 'echo' }]);
    expect(config.values.weighted_score).toEqual({ weights: { score: 1 } });
  });

  it('keeps every comment', () => {
    expect(comments(OLD)).toHaveLength(15);
    for (const comment of comments(OLD)) expect(comments(text)).toContain(comment);
  });

  it('keeps a comment written after a key on that key’s line', () => {
    expect(text).toMatch(/^openrouter: # OpenRouter: every entry takes a prompt$/m);
    expect(text).toMatch(/^ {4}openai: # no limit of its own$/m);
    expect(text).toMatch(/^typesafe: # request type "typesafe"$/m);
    expect(text).toMatch(/^project: my-evals # the tracker project$/m);
  });

  it('keeps the key order: openrouter where vendors was, the direct providers where direct was', () => {
    expect(topKeys(text)).toEqual([
      'project',
      'request_types',
      'defaults',
      'openrouter',
      'typesafe',
      'fake',
      'weighted_score',
    ]);
  });

  it('keeps flow lists as written and says what it moved', () => {
    expect(text).toContain('request_types: [prompt]');
    expect(text).toContain('effort: [default, low, high]');
    expect(notes).toEqual([
      'moved the top-level vendors: under openrouter:',
      'moved direct: typesafe: to a top-level typesafe: section',
      'moved direct: fake: to a top-level fake: section',
    ]);
  });

  it('is done after one pass: the result comes back unchanged', () => {
    expect(upgradeConfig(text)).toEqual({
      text,
      changed: false,
      notes: ['already in the current form: nothing to change'],
    });
  });
});

describe('upgradeConfig: other shapes', () => {
  it('returns a file already in the current form byte for byte, with a note', () => {
    const toy = readFileSync(join(TOY_SUITE, 'evals/.llm-evals.config.yml'), 'utf8');
    expect(upgradeConfig(toy)).toEqual({
      text: toy,
      changed: false,
      notes: ['already in the current form: nothing to change'],
    });
  });

  it.each<[string, string, (c: SuiteConfig) => unknown, unknown]>([
    [
      'a vendor already written as a section keeps its rate limit',
      'request_types: [prompt]\nvendors:\n  openai:\n    rate_limit: { burst: 1, per_minute: 2 }\n    models: [gpt-4.1-mini]\n',
      (c) => c.providers.openrouter!.vendors!.openai,
      { rate_limit: { burst: 1, per_minute: 2 }, models: [{ model: 'gpt-4.1-mini' }] },
    ],
    [
      'vendors move into an existing openrouter: section',
      'request_types: [prompt]\nopenrouter:\n  rate_limit: { burst: 5, per_minute: 60 }\n# old list\nvendors:\n  openai: [gpt-4.1-mini]\n',
      (c) => c.providers.openrouter,
      {
        rate_limit: { burst: 5, per_minute: 60 },
        vendors: { openai: { models: [{ model: 'gpt-4.1-mini' }] } },
      },
    ],
    [
      'vendors move into an empty openrouter:',
      'request_types: [prompt]\nopenrouter: # routed\nvendors:\n  openai: [x]\n',
      (c) => c.providers.openrouter,
      { vendors: { openai: { models: [{ model: 'x' }] } } },
    ],
    [
      'an empty vendors:',
      'request_types: [prompt]\nvendors: # none yet\n',
      (c) => c.providers.openrouter,
      { vendors: {} },
    ],
    [
      'direct alone',
      'request_types: [typesafe]\ndirect:\n  typesafe: [jev-latest]\n',
      (c) => c.providers,
      { typesafe: { models: [{ model: 'jev-latest' }] } },
    ],
    [
      'a direct provider written as a section',
      'request_types: [typesafe]\ndirect:\n  typesafe:\n    rate_limit: { burst: 1, per_minute: 1 }\n    models: [jev-latest]\n',
      (c) => c.providers.typesafe,
      { rate_limit: { burst: 1, per_minute: 1 }, models: [{ model: 'jev-latest' }] },
    ],
  ])('%s', (_, old, pick, want) => {
    const { text, changed } = upgradeConfig(old);
    expect(changed).toBe(true);
    expect(pick(load(text))).toEqual(want);
    for (const comment of comments(old)) expect(comments(text)).toContain(comment);
  });

  it('keeps the comments of an empty direct: on the key after it', () => {
    const { text } = upgradeConfig('request_types: [prompt]\n# none yet\ndirect: # later\nproject: p\n');
    expect(text).toBe('request_types: [prompt]\n# none yet\n# later\nproject: p\n');
  });

  it.each([
    [
      'a direct provider that has a top-level section too',
      'request_types: [prompt]\ntypesafe:\n  models: [a]\ndirect:\n  typesafe: [b]\n',
      'direct.typesafe',
    ],
    [
      'vendors when openrouter.vendors exists',
      'request_types: [prompt]\nopenrouter:\n  vendors: {}\nvendors:\n  openai: [x]\n',
      'vendors',
    ],
    ['direct that is not a section', 'request_types: [prompt]\ndirect: [typesafe]\n', 'direct'],
  ])('refuses %s, naming the file and the key', (_, old, key) => {
    let error: unknown;
    try {
      upgradeConfig(old, 'evals/.llm-evals.config.yml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file: 'evals/.llm-evals.config.yml', key });
  });

  it('refuses malformed YAML', () => {
    expect(() => upgradeConfig('vendors: [a\n', 'x.yml')).toThrow(/x\.yml: malformed YAML/);
  });
});
