import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { expandContenders } from '../../src/core/matrix.ts';
import { ConfigError } from '../../src/errors.ts';
import { builtinProviders } from '../../src/providers/builtin.ts';
import { ProviderRegistry } from '../../src/providers/registry.ts';
import { checkConfig } from '../../src/suite/config.ts';
import { discover } from '../../src/suite/discover.ts';
import { readLineup } from '../../src/suite/lineup.ts';
import { loadSuite, TRACKER_SECTIONS } from '../../src/suite/load.ts';
import { TempDirs, TOY_SUITE, writeTree } from '../helpers/suite-dir.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const FILE = '/project/evals/.llm-evals.config.yml';
const RT = 'request_types: [prompt]\n';
const check = (yaml: string) =>
  checkConfig(
    { file: FILE, data: parse(yaml) as Record<string, unknown> },
    new ProviderRegistry(builtinProviders()).names(),
    TRACKER_SECTIONS,
  );

const LOCAL = `${RT}local-llama:
  base_url: http://127.0.0.1:8080/v1
  api_key_env: LLAMA_KEY
  prices: { input: 0.5, output: 1.5 }
  rate_limit: { burst: 2, per_minute: 30 }
  models:
    - small
    - { model: big, temperature: [0, 0.7], prices: { input: 0, output: 0 } }
`;

describe('checkConfig: an OpenAI-compatible endpoint section (P3)', () => {
  it('reads a new section with base_url as an endpoint and as a provider section', () => {
    const config = check(LOCAL);
    expect(config.endpoints).toEqual({
      'local-llama': {
        base_url: 'http://127.0.0.1:8080/v1',
        api_key_env: 'LLAMA_KEY',
        prices: { input: 0.5, output: 1.5 },
        rate_limit: { burst: 2, per_minute: 30 },
        models: [
          { model: 'small' },
          { model: 'big', temperature: [0, 0.7], prices: { input: 0, output: 0 } },
        ],
      },
    });
    expect(config.providers['local-llama']).toMatchObject({ rate_limit: { burst: 2, per_minute: 30 } });
  });

  it.each([
    [
      'a misspelt key',
      `${RT}llama:\n  base_url: http://h/v1\n  modles: [a]\n`,
      'llama.modles',
      /unknown key, got \["a"\]/,
    ],
    [
      'a base_url that is no URL',
      `${RT}llama:\n  base_url: localhost\n`,
      'llama.base_url',
      /got "localhost"/,
    ],
    [
      'a base_url not over HTTP',
      `${RT}llama:\n  base_url: ftp://h/v1\n`,
      'llama.base_url',
      /got "ftp:\/\/h\/v1"/,
    ],
    [
      'prices with one number',
      `${RT}llama:\n  base_url: http://h/v1\n  prices: { input: 1 }\n`,
      'llama.prices.output',
      /required/,
    ],
    [
      'a negative price',
      `${RT}llama:\n  base_url: http://h/v1\n  prices: { input: -1, output: 1 }\n`,
      'llama.prices.input',
      /got -1/,
    ],
    [
      'an unknown key in a model entry',
      `${RT}llama:\n  base_url: http://h/v1\n  models: [{ model: a, size: 3 }]\n`,
      'llama.models[0].size',
      /unknown key, got 3/,
    ],
    [
      'a name that cannot prefix an id',
      `${RT}"my llama":\n  base_url: http://h/v1\n`,
      'my llama',
      /id prefix/,
    ],
    [
      'base_url under a registered provider',
      `${RT}openrouter:\n  base_url: http://h/v1\n`,
      'openrouter.base_url',
      /unknown key/,
    ],
    ['a section without base_url', `${RT}llama:\n  models: [a]\n`, 'llama', /a new endpoint needs base_url/],
  ])('refuses %s, naming the file, the key and the value', (_, yaml, key, problem) => {
    const error = threw(() => check(yaml));
    expect(error).toMatchObject({ file: FILE, key, exitCode: 2 });
    expect(error.problem).toMatch(problem);
  });

  it.each([
    [
      'a key in api_key_env',
      `${RT}llama:\n  base_url: http://h/v1\n  api_key_env: sk-or-v1-abc123\n`,
      'llama.api_key_env',
    ],
    [
      'a key under an unknown name',
      `${RT}llama:\n  base_url: http://h/v1\n  api_key: sk-or-v1-abc123\n`,
      'llama.api_key',
    ],
    ['a key at the top', `${RT}OPENROUTER_API_KEY: sk-or-v1-abc123\n`, 'OPENROUTER_API_KEY'],
  ])('never repeats a secret it refuses: %s', (_, yaml, key) => {
    const error = threw(() => check(yaml));
    expect(error.key).toBe(key);
    expect(error.message).not.toContain('abc123');
  });
});

describe('loadSuite: endpoint sections become providers before the lineup is read', () => {
  it('registers one provider per section, asked first for its prefix, with the lineup’s ids', async () => {
    const root = writeTree(dirs.os(), {
      'evals/.llm-evals.config.yml': `import: ${TOY_SUITE}/lib/toy-suite.ts\nadapter: ToyAdapter\nscorer: ToyScorer\n${LOCAL}`,
    });
    const suite = await loadSuite(discover({ cwd: root })!);
    expect(suite.registry.names()).toEqual(['openrouter', 'typesafe', 'fake', 'local-llama']);
    expect(suite.registry.get('local-llama')).toMatchObject({
      prefix: 'local-llama/',
      requestType: 'prompt',
      envKeys: ['LLAMA_KEY'],
      direct: false,
    });
    expect(suite.registry.forId('local-llama/other')?.name).toBe('local-llama');
    const { entries, limits } = readLineup({ config: suite.config, registry: suite.registry });
    expect(expandContenders(entries).map((c) => [c.provider, c.id, c.model, c.temperature])).toEqual([
      ['local-llama', 'local-llama/small', 'small', null],
      ['local-llama', 'local-llama/big', 'big', 0],
      ['local-llama', 'local-llama/big', 'big', 0.7],
    ]);
    expect(limits).toEqual({ 'local-llama': { burst: 2, perMinute: 30 } });
    expect(await suite.registry.get('local-llama')!.catalog()).toEqual([
      { id: 'local-llama/small', inputPrice: 0.5e-6, outputPrice: 1.5e-6 },
      { id: 'local-llama/big', inputPrice: 0, outputPrice: 0 },
    ]);
  });
});

function threw(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}
