import { describe, expect, it } from 'vitest';
import { ConfigError, editDistance, nearest } from '../../src/errors.ts';
import { resolveModelId, type KnownModels } from '../../src/suite/model-ids.ts';

const KNOWN: KnownModels = {
  lineup: ['fake/echo', 'fake/parrot', 'openai/gpt-4.1-mini'],
  catalogs: new Map([
    ['openrouter', ['openai/gpt-4.1-mini', 'openai/gpt-4.1', 'anthropic/claude-sonnet-4', 'mistral/echo']],
    ['fake', ['fake/echo', 'fake/parrot']],
    ['ollama', []],
  ]),
  providerFor: (id) => (id.startsWith('fake/') ? 'fake' : id.startsWith('ollama/') ? 'ollama' : 'openrouter'),
};

describe('resolveModelId (-m)', () => {
  it.each<[string, string, string]>([
    ['a lineup id as written', 'fake/parrot', 'fake/parrot'],
    ['a catalog id outside the lineup', 'anthropic/claude-sonnet-4', 'anthropic/claude-sonnet-4'],
    ['a bare name the lineup ends in', 'parrot', 'fake/parrot'],
    ["the lineup's echo over a catalog's namesake", 'echo', 'fake/echo'],
    ['a bare name only a catalog knows', 'claude-sonnet-4', 'anthropic/claude-sonnet-4'],
    ['an id of a provider without a catalog, as written', 'ollama/qwen3:0.6b', 'ollama/qwen3:0.6b'],
  ])('%s', (_, value, want) => {
    expect(resolveModelId(value, KNOWN, 'evals/.llm-evals.config.yml')).toBe(want);
  });

  it.each<[string, string, RegExp]>([
    [
      'a typo of a lineup id',
      'fake/ech',
      /no model "fake\/ech" in the lineup or fake's catalog; did you mean "fake\/echo"\?/,
    ],
    ['a typo of a bare name', 'parot', /did you mean "fake\/parrot"\?/],
    ['a typo of a catalog id', 'anthropic/claude-sonet-4', /did you mean "anthropic\/claude-sonnet-4"\?/],
    [
      'nothing near: the lineup listed',
      'zzz',
      /no model "zzz" in the lineup or any catalog \(the lineup has "fake\/echo", /,
    ],
    ['a bare name two ids end in', 'gpt-4', /no model "gpt-4"/],
  ])('%s: a ConfigError on -m', (_, value, message) => {
    let thrown: unknown;
    try {
      resolveModelId(value, KNOWN, 'evals/.llm-evals.config.yml');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).exitCode).toBe(2);
    expect((thrown as Error).message).toMatch(/: -m: /);
    expect((thrown as Error).message).toMatch(message);
  });

  it('names every id an ambiguous bare name could mean', () => {
    const known: KnownModels = { ...KNOWN, lineup: ['a/mini', 'b/mini'] };
    expect(() => resolveModelId('mini', known)).toThrow('"mini" is ambiguous: it names "a/mini", "b/mini"');
  });
});

describe('editDistance and nearest', () => {
  it.each<[string, string, number]>([
    ['', '', 0],
    ['echo', 'echo', 0],
    ['ech', 'echo', 1],
    ['kitten', 'sitting', 3],
    ['parot', 'parrot', 1],
    ['abc', '', 3],
  ])('editDistance(%j, %j) = %i', (a, b, want) => {
    expect(editDistance(a, b)).toBe(want);
    expect(editDistance(b, a)).toBe(want);
  });

  it.each<[string, string | undefined]>([
    ['ECHO', 'fake/echo'],
    ['parrto', 'fake/parrot'],
    ['gpt-4.1-mni', 'openai/gpt-4.1-mini'],
    ['something-else-entirely', undefined],
  ])('nearest(%j)', (name, want) => {
    expect(nearest(name, KNOWN.lineup, (c) => c.slice(c.lastIndexOf('/') + 1))).toBe(want);
  });
});
