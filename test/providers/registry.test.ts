import { describe, expect, it } from 'vitest';
import { FakeProvider } from '../../src/api/testing.ts';
import { builtinProviders } from '../../src/providers/builtin.ts';
import { OpenAICompatibleProvider } from '../../src/providers/openai-compatible.ts';
import { ProviderRegistry } from '../../src/providers/registry.ts';
import { TYPESAFE_CATALOG, TypeSafeProvider } from '../../src/providers/typesafe.ts';

const fake = (name: string, prefix: string, direct = false) =>
  new FakeProvider({ name, prefix, direct, models: { m: 'echo' } });

function registry() {
  return new ProviderRegistry([
    ...builtinProviders(),
    fake('first', 'x/'),
    fake('second', 'x/'),
    fake('direct', 'd/', true),
    new OpenAICompatibleProvider('local', { baseUrl: 'http://127.0.0.1:1/v1', models: [] }),
  ]);
}

describe('ProviderRegistry (P1)', () => {
  it.each([
    ['a prefix two providers claim: the last registered', 'x/m', 'second'],
    ['an endpoint section’s prefix', 'local/small', 'local'],
    ['an id no prefix claims: OpenRouter', 'openai/gpt-4.1-mini', 'openrouter'],
    ['a direct provider’s prefix: never reached outside its section, so OpenRouter', 'd/m', 'openrouter'],
    ['typesafe/…, direct: OpenRouter’s typesafe vendor', 'typesafe/jev-router', 'openrouter'],
  ])('asks for %s', (_, id, provider) => {
    expect(registry().forId(id)?.name).toBe(provider);
  });

  it('asks OpenRouter last even when it is registered again after the others', () => {
    const r = registry();
    r.register(builtinProviders()[0]!);
    expect(r.forId('x/m')?.name).toBe('second');
    expect(r.forId('acme/m')?.name).toBe('openrouter');
  });

  it('replaces a provider registered again under the same name', () => {
    const r = registry();
    r.register(fake('first', 'y/'));
    expect(r.names()).toEqual(['openrouter', 'typesafe', 'second', 'direct', 'local', 'first']);
    expect(r.forId('y/m')?.name).toBe('first');
  });

  it('lists each request type with its description and providers, for --help', () => {
    expect(registry().requestTypes()).toEqual([
      {
        type: 'prompt',
        description: 'a chat completion: system and user text in, text out',
        providers: ['openrouter', 'first', 'second', 'direct', 'local'],
      },
      { type: 'typesafe', description: 'typed questions: noul, choice, score', providers: ['typesafe'] },
    ]);
  });
});

describe('the built-in providers', () => {
  it('OpenRouter claims every id, needs OPENROUTER_API_KEY and takes efforts', () => {
    expect(builtinProviders()[0]).toMatchObject({
      name: 'openrouter',
      prefix: '',
      direct: false,
      requestType: 'prompt',
      envKeys: ['OPENROUTER_API_KEY'],
      efforts: ['minimal', 'low', 'medium', 'high'],
    });
  });

  it('TypeSafe (P4) is direct, ships its models, key and prices, and has no consumer yet', async () => {
    const typesafe = new TypeSafeProvider();
    expect(typesafe).toMatchObject({
      name: 'typesafe',
      prefix: 'typesafe/',
      direct: true,
      requestType: 'typesafe',
      envKeys: ['TYPESAFE_API_KEY'],
    });
    expect(typesafe.catalog()).toEqual(TYPESAFE_CATALOG);
    for (const entry of typesafe.catalog()) {
      expect(entry.id).toMatch(/^typesafe\//);
      expect(entry.inputPrice).toBeGreaterThan(0);
      expect(entry.outputPrice).toBeGreaterThan(0);
    }
    await expect(typesafe.complete()).rejects.toThrow('no typesafe consumer yet');
  });
});
