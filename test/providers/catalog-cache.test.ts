import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CATALOG_MAX_AGE_MS, catalogCacheFile } from '../../src/providers/catalog-cache.ts';
import { OpenRouterProvider } from '../../src/providers/openrouter.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { ChatServer } from './chat-server.ts';

const dirs = new TempDirs();
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  dirs.removeAll();
});

const MODELS = {
  data: [
    { id: 'acme/m1', pricing: { prompt: '0.000001', completion: '0.000003' }, context_length: 8192 },
    { id: 'openrouter/auto', pricing: { prompt: '-1', completion: '-1' } },
    { id: 'acme/free' },
  ],
};
const ENTRIES = [
  { id: 'acme/m1', inputPrice: 1e-6, outputPrice: 3e-6 },
  { id: 'openrouter/auto' },
  { id: 'acme/free' },
];

async function world() {
  const server = new ChatServer([], MODELS);
  servers.push(server);
  const env = { OPENROUTER_BASE_URL: await server.start(), XDG_CACHE_HOME: dirs.os() };
  const gets = () => server.received.filter((r) => r.path === '/models').length;
  return { server, env, gets, file: catalogCacheFile('openrouter', env) };
}

function writeCache(file: string, source: string, fetchedAt: Date, models: unknown[]): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ version: 1, source, fetchedAt: fetchedAt.toISOString(), models }));
}

describe('the OpenRouter catalog', () => {
  it('is fetched once, cached on disk with its date, and then read offline by other processes', async () => {
    const { server, env, gets, file } = await world();
    expect(file).toBe(join(env.XDG_CACHE_HOME, 'llm-evals', 'catalogs', 'openrouter.json'));
    const first = new OpenRouterProvider(env);
    expect(first.cachedCatalog()).toBeUndefined();
    expect(await first.catalog()).toEqual(ENTRIES);
    expect(await first.catalog()).toEqual(ENTRIES);
    expect(await new OpenRouterProvider(env).catalog()).toEqual(ENTRIES);
    expect(gets()).toBe(1);
    const cached = JSON.parse(readFileSync(file, 'utf8')) as { fetchedAt: string; source: string };
    expect(cached.source).toBe(env.OPENROUTER_BASE_URL);
    expect(Date.now() - Date.parse(cached.fetchedAt)).toBeLessThan(60_000);

    await server.stop();
    const offline = new OpenRouterProvider(env);
    expect(offline.cachedCatalog()?.models).toEqual(ENTRIES);
    expect(await offline.catalog()).toEqual(ENTRIES);
  });

  it('fetches again when the cache is older than a day, and falls back to it when the fetch fails', async () => {
    const { server, env, gets, file } = await world();
    const old = [{ id: 'acme/old' }];
    writeCache(file, env.OPENROUTER_BASE_URL, new Date(Date.now() - CATALOG_MAX_AGE_MS - 1000), old);
    expect(await new OpenRouterProvider(env).catalog()).toEqual(ENTRIES);
    expect(gets()).toBe(1);

    writeCache(file, env.OPENROUTER_BASE_URL, new Date(Date.now() - CATALOG_MAX_AGE_MS - 1000), old);
    await server.stop();
    expect(await new OpenRouterProvider(env).catalog()).toEqual(old);
  });

  it('ignores a cache fetched from another base URL, and a broken one', async () => {
    const { env, gets, file } = await world();
    writeCache(file, 'https://elsewhere.example/v1', new Date(), [{ id: 'acme/elsewhere' }]);
    expect(new OpenRouterProvider(env).cachedCatalog()).toBeUndefined();
    writeFileSync(file, '{"version": 1, "models": "nope"');
    expect(new OpenRouterProvider(env).cachedCatalog()).toBeUndefined();
    expect(await new OpenRouterProvider(env).catalog()).toEqual(ENTRIES);
    expect(gets()).toBe(1);
  });

  it('rejects when there is neither a server nor a cache, and writes nothing', async () => {
    const { server, env, file } = await world();
    await server.stop();
    await expect(new OpenRouterProvider(env).catalog()).rejects.toThrow();
    expect(existsSync(file)).toBe(false);
  });
});
