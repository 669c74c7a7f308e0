import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogCacheFile } from '../../src/providers/catalog-cache.ts';
import { runCli } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { ChatServer } from './chat-server.ts';
import { cliEnv, providerSuite, rowsByModel } from './cli-suite.ts';

const dirs = new TempDirs();
const MODELS = { data: [{ id: 'acme/priced', pricing: { prompt: '0.001', completion: '0.002' } }] };
const LINEUP = 'openrouter:\n  vendors:\n    acme:\n      models: [priced, typo]\n';
const WARNING = /warning: acme\/typo is not in openrouter's catalog of \d{4}-\d\d-\d\d: check the id/;

describe('the OpenRouter catalog through the real CLI', () => {
  const server = new ChatServer([], MODELS);
  let project: string;
  let env: NodeJS.ProcessEnv;
  const modelGets = () => server.received.filter((r) => r.path === '/models').length;

  beforeAll(async () => {
    project = providerSuite(dirs, LINEUP);
    env = cliEnv(dirs.os(), { OPENROUTER_BASE_URL: await server.start(), OPENROUTER_API_KEY: 'test-key' });
  });

  afterAll(async () => {
    await server.stop();
    dirs.removeAll();
  });

  it('verify says so, and passes, while no catalog is cached', async () => {
    const result = await runCli(['verify'], { cwd: project, env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('openrouter has no cached catalog yet, so its model ids are not checked');
    expect(modelGets()).toBe(0);
  });

  it('compare -n fetches it once, caches it, prices the estimate and names an unknown id', async () => {
    const result = await runCli(['compare', '-n'], { cwd: project, env });
    expect(result.code, result.stderr).toBe(0);
    expect(modelGets()).toBe(1);
    expect(existsSync(catalogCacheFile('openrouter', env))).toBe(true);
    expect(result.stderr).toMatch(WARNING);
    const rows = rowsByModel(result.stdout);
    expect(rows['acme/priced']?.['≈cost']).toMatch(/^\$\d+\.\d{4}$/);
    expect(rows['acme/priced']?.['≈cost']).not.toBe('$0.0000');
    expect(rows['acme/typo']?.['≈cost']).toBe('?');
  });

  it('verify and compare -n then work offline from the cache', async () => {
    await server.stop();
    const dry = await runCli(['compare', '-n'], { cwd: project, env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(WARNING);
    expect(rowsByModel(dry.stdout)['acme/priced']?.['≈cost']).toMatch(/^\$\d+\.\d{4}$/);

    const verify = await runCli(['verify'], { cwd: project, env });
    expect(verify.code, verify.stderr).toBe(0);
    const warnings = verify.stdout.split('\n').filter((l) => l.includes('warning:'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(WARNING);
    expect(modelGets()).toBe(1);
  });
});
