import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { FakeProvider } from '../../src/api/testing.ts';
import { expandContenders } from '../../src/core/matrix.ts';
import { ConfigError } from '../../src/errors.ts';
import { builtinProviders } from '../../src/providers/builtin.ts';
import { TypeSafeProvider } from '../../src/providers/typesafe.ts';
import { ProviderRegistry } from '../../src/providers/registry.ts';
import { checkConfig } from '../../src/suite/config.ts';
import { readLineup, type LineupSource, type SettingOverrides } from '../../src/suite/lineup.ts';
import { TRACKER_SECTIONS } from '../../src/suite/load.ts';

const FILE = '/project/evals/.llm-evals.config.yml';

/** The built-in providers plus a fake one registered after them, as a helper would. */
const registry = () =>
  new ProviderRegistry([
    ...builtinProviders(),
    new FakeProvider({ models: { echo: 'echo', parrot: 'echo' } }),
  ]);

/** Reads the lineup of a YAML text, as `compare` does after loading the suite. */
function lineup(
  yaml: string,
  options: Omit<LineupSource, 'config' | 'registry'> & { registry?: ProviderRegistry } = {},
) {
  const reg = options.registry ?? registry();
  const config = checkConfig(
    { file: FILE, data: parse(yaml) as Record<string, unknown> },
    reg.names(),
    TRACKER_SECTIONS,
  );
  return readLineup({ ...options, config, registry: reg });
}

const keys = (yaml: string, options: Parameters<typeof lineup>[1] = {}) =>
  expandContenders(lineup(yaml, options).entries).map((c) => c.key.slice(c.provider.length + 1));

const threw = (run: () => unknown): ConfigError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
};

describe('readLineup: expansion', () => {
  it.each([
    ['one entry, no settings', 'fake: { models: [echo] }', ['fake/echo effort=default']],
    [
      'an effort list',
      'fake: { models: [{ model: echo, effort: [low, high] }] }',
      ['fake/echo effort=low', 'fake/echo effort=high'],
    ],
    [
      'effort × temperature lists multiply',
      'fake: { models: [{ model: echo, effort: [low, high], temperature: [0, 0.7] }] }',
      [
        'fake/echo effort=low t=0',
        'fake/echo effort=low t=0.7',
        'fake/echo effort=high t=0',
        'fake/echo effort=high t=0.7',
      ],
    ],
    [
      'default lists multiply every entry',
      'defaults: { effort: [low, high] }\nfake: { models: [echo, parrot] }',
      ['fake/echo effort=low', 'fake/echo effort=high', 'fake/parrot effort=low', 'fake/parrot effort=high'],
    ],
    [
      'max_tokens is part of the contender',
      'fake: { models: [{ model: echo, max_tokens: 256, temperature: 0.2 }] }',
      ['fake/echo effort=default t=0.2 max=256'],
    ],
  ])('%s', (_, yaml, want) => {
    expect(keys(`request_types: [prompt]\n${yaml}\n`)).toEqual(want);
  });

  it('treats a bare model name as {model: name}', () => {
    const bare = lineup('request_types: [prompt]\nfake: { models: [echo] }\n');
    const full = lineup('request_types: [prompt]\nfake: { models: [{ model: echo }] }\n');
    expect(bare).toEqual(full);
    expect(bare.entries).toEqual([
      {
        id: 'fake/echo',
        provider: 'fake',
        requestType: 'prompt',
        model: 'echo',
        effort: ['default'],
        temperature: [null],
        maxTokens: null,
        limits: [],
      },
    ]);
  });
});

describe('readLineup: precedence flags > entry > defaults', () => {
  const settings = (defaults: string, entry: string, overrides: SettingOverrides) => {
    const [e] = lineup(
      `request_types: [prompt]\ndefaults: {${defaults}}\nfake: { models: [{ model: echo${entry ? `, ${entry}` : ''} }] }\n`,
      { overrides },
    ).entries;
    return { effort: e?.effort, temperature: e?.temperature, maxTokens: e?.maxTokens };
  };

  it.each([
    ['nothing set', '', '', {}, { effort: ['default'], temperature: [null], maxTokens: null }],
    [
      'defaults only',
      'effort: low, temperature: 0.1, max_tokens: 100',
      '',
      {},
      { effort: ['low'], temperature: [0.1], maxTokens: 100 },
    ],
    [
      'the entry beats the defaults',
      'effort: low, temperature: 0.1, max_tokens: 100',
      'effort: high, temperature: [0.5, 0.9], max_tokens: 200',
      {},
      { effort: ['high'], temperature: [0.5, 0.9], maxTokens: 200 },
    ],
    [
      'flags beat the entry',
      'effort: low, temperature: 0.1, max_tokens: 100',
      'effort: high, temperature: 0.5, max_tokens: 200',
      { effort: ['minimal', 'medium'], temperature: [0], maxTokens: 300 },
      { effort: ['minimal', 'medium'], temperature: [0], maxTokens: 300 },
    ],
    [
      'each setting on its own',
      'effort: low, temperature: 0.1, max_tokens: 100',
      'temperature: 0.5',
      { maxTokens: 300 },
      { effort: ['low'], temperature: [0.5], maxTokens: 300 },
    ],
  ])('%s', (_, defaults, entry, overrides, want) => {
    expect(settings(defaults, entry, overrides)).toEqual(want);
  });
});

describe('readLineup: request types', () => {
  const TOY = 'fake: { models: [echo] }\ntypesafe: { models: [jev-latest] }\n';

  it('refuses a contender whose provider serves another type, with the message users see', () => {
    const { entries, refused } = lineup(`request_types: [prompt]\n${TOY}`);
    expect(entries.map((e) => e.id)).toEqual(['fake/echo']);
    expect(refused).toEqual([
      {
        id: 'typesafe/jev-latest',
        provider: 'typesafe',
        needs: 'typesafe',
        message: 'typesafe/jev-latest refused: needs typesafe; this suite produces prompt',
      },
    ]);
  });

  it.each([
    ['prompt and typesafe', '[prompt, typesafe]', ['fake/echo', 'typesafe/jev-latest'], []],
    [
      'typesafe only',
      '[typesafe]',
      ['typesafe/jev-latest'],
      ['fake/echo refused: needs prompt; this suite produces typesafe'],
    ],
  ])('with %s', (_, types, ids, messages) => {
    const { entries, refused } = lineup(`request_types: ${types}\n${TOY}`);
    expect(entries.map((e) => e.id)).toEqual(ids);
    expect(refused.map((r) => r.message)).toEqual(messages);
  });

  it('refuses a model listed twice once', () => {
    const { refused } = lineup(
      'request_types: [prompt]\ntypesafe: { models: [jev-latest, { model: jev-latest, effort: low }] }\n',
    );
    expect(refused).toHaveLength(1);
  });

  it('refuses a -m model the suite cannot ask too', () => {
    const { entries, refused } = lineup(`request_types: [prompt]\n${TOY}`, {
      models: ['typesafe/jev-latest'],
    });
    expect(entries).toEqual([]);
    expect(refused.map((r) => r.id)).toEqual(['typesafe/jev-latest']);
  });
});

describe('readLineup: providers and rate limits', () => {
  const ROUTED = `
request_types: [prompt, typesafe]
openrouter:
  rate_limit: { burst: 10, per_minute: 100 }
  vendors:
    openai:
      rate_limit: { burst: 5, per_minute: 50 }
      models:
        - gpt-4.1-mini
        - { model: gpt-5, rate_limit: { burst: 1, per_minute: 6 } }
    typesafe:
      models: [jev-router]
typesafe:
  rate_limit: { burst: 2, per_minute: 20 }
  models: [jev-latest]
`;

  it('gives OpenRouter vendors ids <vendor>/<model> and limit keys for provider, vendor and model', () => {
    const { entries, limits } = lineup(ROUTED);
    expect(entries.map((e) => [e.id, e.provider, e.model, e.limits])).toEqual([
      ['openai/gpt-4.1-mini', 'openrouter', 'openai/gpt-4.1-mini', ['openrouter', 'openrouter/openai']],
      [
        'openai/gpt-5',
        'openrouter',
        'openai/gpt-5',
        ['openrouter', 'openrouter/openai', 'openrouter:openai/gpt-5'],
      ],
      ['typesafe/jev-router', 'openrouter', 'typesafe/jev-router', ['openrouter']],
      ['typesafe/jev-latest', 'typesafe', 'jev-latest', ['typesafe']],
    ]);
    expect(limits).toEqual({
      openrouter: { burst: 10, perMinute: 100 },
      'openrouter/openai': { burst: 5, perMinute: 50 },
      'openrouter:openai/gpt-5': { burst: 1, perMinute: 6 },
      typesafe: { burst: 2, perMinute: 20 },
    });
  });

  it('keeps the direct typesafe/ model and OpenRouter’s typesafe/ vendor apart', () => {
    const contenders = expandContenders(lineup(ROUTED).entries);
    expect(
      contenders.filter((c) => c.id.startsWith('typesafe/')).map((c) => [c.id, c.provider, c.model]),
    ).toEqual([
      ['typesafe/jev-router', 'openrouter', 'typesafe/jev-router'],
      ['typesafe/jev-latest', 'typesafe', 'jev-latest'],
    ]);
  });

  it.each([
    [
      'the first',
      '{ model: echo, effort: low, rate_limit: { burst: 1, per_minute: 6 } }',
      '{ model: echo, effort: high }',
    ],
    [
      'the second',
      '{ model: echo, effort: low }',
      '{ model: echo, effort: high, rate_limit: { burst: 1, per_minute: 6 } }',
    ],
  ])('lets a model listed twice share the limit set on %s entry', (_, first, second) => {
    const { entries, limits } = lineup(
      `request_types: [prompt]\nfake:\n  models:\n    - ${first}\n    - ${second}\n`,
    );
    expect(entries.map((e) => e.limits)).toEqual([['fake:fake/echo'], ['fake:fake/echo']]);
    expect(limits).toEqual({ 'fake:fake/echo': { burst: 1, perMinute: 6 } });
  });

  it('refuses a model rate_limit set on two entries, naming the file and the second entry', () => {
    const error = threw(() =>
      lineup(
        'request_types: [prompt]\nfake:\n  models:\n    - { model: echo, rate_limit: { burst: 1, per_minute: 6 } }\n    - { model: echo, effort: low, rate_limit: { burst: 2, per_minute: 6 } }\n',
      ),
    );
    expect(error.file).toBe(FILE);
    expect(error.key).toBe('fake.models[1].rate_limit');
    expect(error.problem).toMatch(/fake\/echo has a rate_limit already at fake\.models\[0\]/);
  });

  it('refuses vendors under a direct provider', () => {
    const error = threw(() =>
      lineup('request_types: [typesafe]\ntypesafe: { vendors: { x: { models: [y] } } }\n'),
    );
    expect(error.file).toBe(FILE);
    expect(error.key).toBe('typesafe.vendors');
  });
});

describe('readLineup: -m', () => {
  const YAML = `
request_types: [prompt]
openrouter:
  rate_limit: { burst: 10, per_minute: 100 }
  vendors:
    anthropic:
      rate_limit: { burst: 5, per_minute: 50 }
      models: [{ model: claude-haiku, effort: [low, high] }]
fake: { models: [echo] }
`;

  it('takes a listed id from the lineup, with its settings, and nothing else', () => {
    expect(keys(YAML, { models: ['anthropic/claude-haiku'] })).toEqual([
      'anthropic/claude-haiku effort=low',
      'anthropic/claude-haiku effort=high',
    ]);
  });

  it.each([
    [
      'an OpenRouter id, bound by the provider and vendor limits',
      'anthropic/claude-opus',
      {
        provider: 'openrouter',
        model: 'anthropic/claude-opus',
        limits: ['openrouter', 'openrouter/anthropic'],
      },
    ],
    [
      'an id of a vendor without limits',
      'openai/gpt-5',
      { provider: 'openrouter', model: 'openai/gpt-5', limits: ['openrouter'] },
    ],
    [
      'an id with a registered prefix (asked before OpenRouter)',
      'fake/parrot',
      { provider: 'fake', model: 'parrot', limits: [] },
    ],
    [
      'a direct provider’s id (never reached outside its section)',
      'typesafe/jev-mini',
      { provider: 'openrouter', model: 'typesafe/jev-mini', limits: ['openrouter'] },
    ],
  ])('sends an unlisted id to the registry: %s', (_, id, want) => {
    const { entries } = lineup(YAML, { models: [id] });
    expect(entries).toEqual([
      { id, requestType: 'prompt', effort: ['default'], temperature: [null], maxTokens: null, ...want },
    ]);
  });

  it('applies flags to -m models', () => {
    expect(
      keys(YAML, { models: ['openai/gpt-5'], overrides: { effort: ['high'], temperature: [0.3] } }),
    ).toEqual(['openai/gpt-5 effort=high t=0.3']);
  });

  it('asks the last registered provider first', () => {
    const reg = registry();
    reg.register(new FakeProvider({ name: 'ollama', prefix: 'fake/', models: {} }));
    expect(
      lineup('request_types: [prompt]\n', { models: ['fake/echo'], registry: reg }).entries[0]?.provider,
    ).toBe('ollama');
  });

  it('names -m when no provider serves the id', () => {
    const error = threw(() =>
      lineup('request_types: [typesafe]\n', {
        models: ['x/y'],
        registry: new ProviderRegistry([new TypeSafeProvider()]),
      }),
    );
    expect(error.key).toBe('-m');
    expect(error.problem).toContain('"x/y"');
  });
});
