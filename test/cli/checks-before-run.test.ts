import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

// Never a wrong word (issue 28): `verify` said "no problems" of a lineup that `compare` refused. verify, compare -n and
// the run's own checks are one set of checks, with one exit code (2), each problem named the same way.
describe.concurrent('verify, compare -n and compare: one set of checks', () => {
  it.each<[string, string]>([
    ['an unset api_key_env', 'KEYED_API_KEY: not set, and provider keyed needs it'],
    ['a closed port', 'is not reachable (connection refused)'],
  ])(
    '%s fails all three with exit 2, named alike',
    async (what, problem) => {
      const { url, server } = await listening();
      const closed = `http://127.0.0.1:${await freeServerPort()}/v1`;
      const lineup =
        what === 'a closed port'
          ? `keyed:\n  base_url: ${closed}\n  models: [m]\n`
          : `keyed:\n  base_url: ${url}\n  api_key_env: KEYED_API_KEY\n  models: [m]\n`;
      const project = providerSuite(dirs, lineup, numberedCases(2));
      const env = cliEnv(await warmCache(), { KEYED_API_KEY: '' });
      for (const args of [['verify'], ['compare', '-n'], ['compare', '--display', 'none']]) {
        const result = await runCli(args, { cwd: project, env });
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
        expect(result.stdout + result.stderr, args.join(' ')).toContain(problem);
        expect(result.stderr).not.toMatch(STACK);
      }
      expect(server.of('m')).toHaveLength(0);
      expect(existsSync(join(project, 'evals/results'))).toBe(false);
    },
    60_000,
  );
});
