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
const REFUSED = `evals/.llm-evals.config.yml: openrouter.vendors.acme.models: "typo" (acme/typo) is not among the models`;

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

  it('verify fetches it, caches it, and refuses an id it does not list', async () => {
    const result = await runCli(['verify'], { cwd: project, env });
    expect(result.code, result.stdout).toBe(2);
    expect(result.stdout).toContain(REFUSED);
    expect(modelGets()).toBe(1);
    expect(existsSync(catalogCacheFile('openrouter', env))).toBe(true);
  });

  it('compare -n prices the estimate from the cache and refuses the unknown id, as compare does', async () => {
    const result = await runCli(['compare', '-n'], { cwd: project, env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(REFUSED);
    const rows = rowsByModel(result.stdout);
    expect(rows['acme/priced']?.['≈cost']).toMatch(/^\$\d+\.\d{4}$/);
    expect(rows['acme/priced']?.['≈cost']).not.toBe('$0.0000');
    expect(rows['acme/typo']?.['≈cost']).toBe('?');
    const run = await runCli(['compare', '--display', 'none'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain(REFUSED);
    expect(run.stderr).toContain('nothing was called');
    expect(server.completions()).toHaveLength(0);
    // Each command looks a missing id up once more before it refuses it: the cache may predate the model.
    expect(modelGets()).toBe(3);
  });

  it('an OpenRouter that does not answer is named before any call', async () => {
    await server.stop();
    const dry = await runCli(['compare', '-n'], { cwd: project, env });
    expect(dry.code, dry.stderr).toBe(2);
    expect(dry.stderr).toMatch(
      /openrouter: http:\/\/127\.0\.0\.1:\d+\/v1 is not reachable \(connection refused\)/,
    );
    expect(rowsByModel(dry.stdout)['acme/priced']?.['≈cost']).toMatch(/^\$\d+\.\d{4}$/);
    const verify = await runCli(['verify'], { cwd: project, env });
    expect(verify.code, verify.stdout).toBe(2);
    expect(verify.stdout).toContain('is not reachable (connection refused)');
    expect(modelGets()).toBe(3);
  });
});
