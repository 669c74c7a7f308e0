import { describe, expect, it } from 'vitest';
import { modelsUrl, servesModel } from '../../src/providers/served-models.ts';

describe('servesModel', () => {
  it.each<[string, string[], string, boolean]>([
    ['listed', ['gpt-x', 'gpt-y'], 'gpt-y', true],
    ['not listed', ['gpt-x'], 'gpt-z', false],
    ["Ollama's bare name for :latest", ['llama3:latest'], 'llama3', true],
    ['a tag other than latest', ['llama3:8b'], 'llama3', false],
    ['a tag is not stripped', ['llama3'], 'llama3:latest', false],
    ['case counts', ['GPT-X'], 'gpt-x', false],
  ])('%s', (_, names, model, served) => {
    expect(servesModel(names, model)).toBe(served);
  });
});

describe('modelsUrl', () => {
  it.each([
    ['http://127.0.0.1:8080/v1', 'http://127.0.0.1:8080/v1/models'],
    ['http://127.0.0.1:8080/v1/', 'http://127.0.0.1:8080/v1/models'],
  ])('%s', (base, url) => {
    expect(modelsUrl(base)).toBe(url);
  });
});
