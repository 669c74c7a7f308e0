import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { catalogCacheFile } from '../../src/providers/catalog-cache.ts';
import { runCli } from '../helpers/cli.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { ChatServer, completion, userText } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// A model its endpoint does not serve is refused before any call when the endpoint lists its models (`GET /models`):
// by compare, compare -n and verify alike (exit 2, the file, the key, the value and a "did you mean"); --no-verify
// skips the check, and an endpoint that lists nothing is not refused.

const dirs = new TempDirs();
const stops: (() => Promise<void>)[] = [];
const STACK = /^\s+at /m;

afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
  dirs.removeAll();
});

describe.concurrent('the models an endpoint lists', () => {
  it('refuses a model it does not list, before any call, and --no-verify calls it', async ({ expect }) => {
    const server = new ChatServer((request) => completion(userText(request)), {
      data: [{ id: 'gpt-x' }, { id: 'gpt-y-large' }],
    });
    const url = await server.start();
    stops.push(() => server.stop());
    const project = providerSuite(
      dirs,
      `lan:\n  base_url: ${url}\n  models: [gpt-x, gpt-z]\n`,
      numberedCases(2),
    );
    const env = cliEnv(await warmCache(), {});
    const line = `evals/.llm-evals.config.yml: lan.models: "gpt-z" is not among the models ${url}/models lists; did you mean "gpt-x"?`;
    const lists = () => server.received.filter((r) => r.path === '/models').length;

    const verify = await runCli(['verify'], { cwd: project, env });
    expect(verify.code, verify.stdout + verify.stderr).toBe(2);
    expect(verify.stdout).toContain(line);
    // Fetched once, cached like OpenRouter's catalog for the commands after it.
    expect(lists()).toBe(1);
    expect(existsSync(catalogCacheFile('endpoint-lan', env))).toBe(true);
    for (const args of [
      ['compare', '-n'],
      ['compare', '--display', 'none'],
    ]) {
      const run = await runCli(args, { cwd: project, env });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(line);
      expect(run.stderr).toContain('nothing was called');
      expect(run.stderr).not.toMatch(STACK);
    }
    expect(server.completions()).toHaveLength(0);
    // A model missing from the cached list is looked up again before it is refused (the endpoint may serve it now).
    expect(lists()).toBe(3);
    expect(existsSync(join(project, 'evals/results'))).toBe(false);

    const unchecked = await runCli(['compare', '--no-verify', '--display', 'none'], { cwd: project, env });
    expect(unchecked.code, unchecked.stderr).toBe(0);
    expect(server.completions().map((r) => r.body.model)).toEqual(expect.arrayContaining(['gpt-x', 'gpt-z']));
    expect(lists()).toBe(3);
  }, 120_000);

  it('does not refuse a model of an endpoint that does not answer GET /models', async ({ expect }) => {
    // The fault server answers 404 to everything but chat completions.
    const server = new FaultServer({});
    const url = await server.start();
    stops.push(() => server.stop());
    const project = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [any-name]\n`, numberedCases(2));
    const env = cliEnv(await warmCache(), {});
    const run = await runCli(['compare', '--display', 'none'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(server.of('any-name')).toHaveLength(2);
  }, 120_000);
});
