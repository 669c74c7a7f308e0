import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { caseFiles, TempDirs, TOY_SUITE, writeTree } from '../helpers/suite-dir.ts';
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

  // Issue 44: a case folder without input.txt was left out in silence (`✓ 2 cases … no problems`, and the run went
  // on without it). One that holds a case's other files is refused, naming the folder.
  it.for([
    ['verify', 'expected.json'],
    ['verify', 'metadata.json'],
    ['compare', 'expected.json'],
    ['compare', 'metadata.json'],
  ])(
    '%s refuses a case folder with %s but no input.txt, calling nothing',
    async ([command, file], { expect }) => {
      const { url, server } = await listening();
      const folder = 'evals/datasets/pets/cases/bulk/003';
      const cases = { ...numberedCases(2), [`${folder}/${file}`]: '{ "animal": "cat", "name": null }\n' };
      const project = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [m]\n`, cases);
      const run = await runCli([command!, ...(command === 'compare' ? ['--display', 'none'] : [])], {
        cwd: project,
        env: cliEnv(await warmCache(), {}),
      });
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stdout + run.stderr).toContain(`${folder}: a case folder with ${file} but no input.txt`);
      expect(run.stdout + run.stderr).not.toMatch(STACK);
      expect(server.of('m')).toHaveLength(0);
      expect(existsSync(join(project, 'evals/results'))).toBe(false);
    },
  );

  // Issue 46: a conversation case (input.json) or expected tool calls that are not what the API reads are refused
  // before any call, naming file and key.
  it.for([
    [
      'input.json',
      '{ "messages": [{ "role": "bot", "content": "hi" }] }\n',
      'messages[0].role',
      'unknown role "bot"',
    ],
    ['input.json', '{ "turns": [] }\n', 'messages', 'missing'],
    ['expected.json', '{ "tool_calls": [{ "name": "f" }] }\n', 'tool_calls[0].arguments', 'got nothing'],
  ])('compare refuses a bad %s (%s), calling nothing', async ([file, text, key, problem], { expect }) => {
    const { url, server } = await listening();
    const folder = 'evals/datasets/pets/cases/talk';
    const cases = {
      ...numberedCases(2),
      [`${folder}/input.json`]: '{ "messages": [{ "role": "user", "content": "hi" }] }\n',
      [`${folder}/expected.json`]: '{}\n',
      [`${folder}/${file}`]: text!,
    };
    const project = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [m]\n`, cases);
    const run = await runCli(['compare', '--display', 'none'], {
      cwd: project,
      env: cliEnv(await warmCache(), {}),
    });
    const out = run.stdout + run.stderr;
    expect(run.code, out).toBe(2);
    expect(out).toContain(`${folder}/${file}`);
    expect(out).toContain(key);
    expect(out).toContain(problem);
    expect(out).not.toMatch(STACK);
    expect(server.of('m')).toHaveLength(0);
  });

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
    // The unchecked run waits out each case's back-off (1, 2, 4, 8 s): 38-40 s in a quiet check, over 60 s in CI.
  }, 120_000);

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

// Issue 48: a cluster that refuses the namespace (the dev server knows only those it was given) is bad input. One at a
// time: the concurrent block above is long enough on a loaded machine.
describe('a namespace the cluster does not have', () => {
  it.for([['compare', '--display', 'none'], ['start'], ['status']])(
    '%s with a TEMPORAL_NAMESPACE the server does not have: exit 2 naming it, nothing called',
    async ([command, ...flags], { expect }) => {
      const { url, server } = await listening();
      const project = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [m]\n`, numberedCases(2));
      const namespace = `nowhere-${process.pid}`;
      const run = await runCli([command!, ...flags], {
        cwd: project,
        env: cliEnv(await warmCache(), { TEMPORAL_NAMESPACE: namespace }),
      });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain(`TEMPORAL_NAMESPACE=${namespace}`);
      expect(run.stderr).toContain('has no such namespace');
      expect(run.stderr).not.toMatch(STACK);
      expect(server.of('m')).toHaveLength(0);
      expect(existsSync(join(project, 'evals/results'))).toBe(false);
    },
  );
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

// Never a wrong word (issue 28): a scorer that throws was found after 108 paid calls. Before any call each case's
// expected answer is scored as if it were the reply: a throw stops the run (exit 2, naming the case and the error);
// less than full marks is a warning (a scorer bug, or a wrong expected value).
describe.concurrent('the scorer grades each expected answer before any call', () => {
  const SCORERS = `import type { Case, Json, Reply, Score } from 'llm-evals';
import { ToyScorer } from '${join(TOY_SUITE, 'lib/toy-suite.ts')}';

export class ThrowingScorer extends ToyScorer {
  call(kase: Case, reply: Reply): Score {
    if (kase.key === 'pets/bulk/002') throw new Error('cannot read the name of undefined');
    return super.call(kase, reply);
  }
}

export class HalfScorer extends ToyScorer {
  call(kase: Case, reply: Reply): Score {
    const score = super.call(kase, reply);
    return kase.key === 'pets/bulk/001' ? { ...score, value: score.value / 2 } : score;
  }
}
`;

  /** A config-only project whose scorer is `scorer` (from the file above), calling a listening server. */
  async function project(scorer: string) {
    const { url, server } = await listening();
    const lineup = [
      `import: [${join(TOY_SUITE, 'lib/toy-suite.ts')}, ./lib/scorers.ts]`,
      'adapter: ToyAdapter',
      `scorer: ${scorer}`,
      'request_types: [prompt]',
      `lan:\n  base_url: ${url}\n  models: [m]`,
    ].join('\n');
    const dir = writeTree(dirs.os('llm-evals-scorer-check-'), {
      ...numberedCases(3),
      'lib/scorers.ts': SCORERS,
      'evals/.llm-evals.config.yml': lineup + '\n',
    });
    return { dir, server };
  }

  it('a scorer that throws on an expected answer stops verify, compare -n and compare: exit 2, case and error named', async () => {
    const { dir, server } = await project('ThrowingScorer');
    const env = cliEnv(await warmCache(), {});
    const named =
      "pets/bulk/002: the scorer threw on the case's own expected answer given as the reply: cannot read the name of undefined";
    for (const args of [['verify'], ['compare', '-n'], ['compare', '--display', 'none']]) {
      const result = await runCli(args, { cwd: dir, env });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stdout + result.stderr, args.join(' ')).toContain(named);
      expect(result.stderr).not.toMatch(STACK);
    }
    expect(server.of('m')).toHaveLength(0);
    expect(existsSync(join(dir, 'evals/results'))).toBe(false);
  }, 60_000);

  it('one that gives an expected answer less than full marks is warned about, and stops nothing', async () => {
    const { dir } = await project('HalfScorer');
    const env = cliEnv(await warmCache(), {});
    const warning =
      'the scorer gives a case its own expected answer less than full marks: pets/bulk/001 (50.0%) ' +
      '(a scorer bug, or a wrong expected value?)';
    const verify = await runCli(['verify'], { cwd: dir, env });
    expect(verify.code, verify.stdout).toBe(0);
    expect(verify.stdout).toContain(`! warning: ${warning}`);
    const dry = await runCli(['compare', '-n'], { cwd: dir, env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain(`warning: ${warning}`);
  }, 60_000);
});
