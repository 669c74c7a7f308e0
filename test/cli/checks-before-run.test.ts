import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { caseFiles, TempDirs } from '../helpers/suite-dir.ts';
import { freeServerPort } from '../helpers/temporal.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// Honest numbers: `compare`, `run` and `start` run verify's checks before the first call. A broken expected answer,
// a missing key or an endpoint nobody listens on is refused with exit 2, one line naming it, and nothing called.

const dirs = new TempDirs();
const servers: FaultServer[] = [];
const STACK = /^\s+at /m;

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  dirs.removeAll();
});

async function listening(): Promise<{ url: string; server: FaultServer }> {
  const server = new FaultServer({});
  servers.push(server);
  return { url: await server.start(), server };
}

describe.concurrent('checks before any call', () => {
  it.for([
    ['compare', '--display', 'none'],
    ['run', '-m', 'lan/m', '--display', 'none'],
    ['start', '--no-worker'],
  ])(
    '%s refuses a case whose expected.json the scorer rejects, calling nothing',
    async ([command, ...flags], { expect }) => {
      const { url, server } = await listening();
      const cases = {
        ...numberedCases(2),
        ...caseFiles('evals/datasets/pets/cases/broken/001', { input: 'x\n', expected: '{}\n' }),
      };
      const project = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [m]\n`, cases);
      const run = await runCli([command!, ...flags], {
        cwd: project,
        env: cliEnv(await warmCache(), {}),
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('evals/datasets/pets/cases/broken/001/expected.json');
      expect(run.stderr).toContain('nothing was called');
      expect(run.stderr).not.toMatch(STACK);
      expect(server.of('m')).toHaveLength(0);
      expect(existsSync(join(project, 'evals/results'))).toBe(false);
    },
  );

  it('names an endpoint that refuses connections, and --no-verify lets the run go on to fail it', async ({
    expect,
  }) => {
    const closed = `http://127.0.0.1:${await freeServerPort()}/v1`;
    const project = providerSuite(dirs, `gone:\n  base_url: ${closed}\n  models: [m]\n`, numberedCases(2));
    const env = cliEnv(await warmCache(), {});
    const refused = await runCli(['compare', '--display', 'none'], { cwd: project, env });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(`gone: ${closed} is not reachable (connection refused)`);
    expect(existsSync(join(project, 'evals/results'))).toBe(false);

    const unchecked = await runCli(['compare', '--no-verify', '--allow-failures', '--display', 'none'], {
      cwd: project,
      env,
    });
    expect(unchecked.code, unchecked.stderr).toBe(0);
    expect(existsSync(join(project, 'evals/results'))).toBe(true);
  }, 60_000);

  it('names a missing key even with --no-verify', async ({ expect }) => {
    const { url, server } = await listening();
    const lineup = `keyed:\n  base_url: ${url}\n  api_key_env: KEYED_API_KEY\n  models: [m]\n`;
    const project = providerSuite(dirs, lineup, numberedCases(2));
    for (const flags of [[], ['--no-verify']]) {
      const run = await runCli(['compare', ...flags, '--display', 'none'], {
        cwd: project,
        env: cliEnv(await warmCache(), { KEYED_API_KEY: '' }),
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('KEYED_API_KEY: not set, and provider keyed needs it');
    }
    expect(server.of('m')).toHaveLength(0);
  }, 60_000);
});
