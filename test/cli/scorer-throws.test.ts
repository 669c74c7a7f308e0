import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { always, FaultServer, warmCache } from '../helpers/fault-server.ts';
import { TOY_SUITE, writeTree } from '../helpers/suite-dir.ts';
import { completion } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, savedSnapshot } from '../providers/cli-suite.ts';

// A scorer that throws on real replies (not on the expected answers, which are checked before any call) is a bug in
// the suite's code: every call after it is paid for a case that ends as an error. The run pauses after a few throws,
// naming the scorer's error, as it does after a streak of failed calls.

const { dirs, servers } = cliFixtures();

const SCORERS = `import type { Case, Reply, Score } from 'llm-evals';
import { ToyScorer } from '${join(TOY_SUITE, 'lib/toy-suite.ts')}';

export class ReplyThrowingScorer extends ToyScorer {
  call(kase: Case, reply: Reply): Score {
    if (reply.raw.includes('"from-the-model"')) throw new Error('reply.meta is undefined');
    return super.call(kase, reply);
  }
}
`;

/** A config-only project of `cases` cases whose scorer throws on what the model answers, and its model's server. */
async function throwingProject(prefix: string, cases: number): Promise<{ dir: string; server: FaultServer }> {
  const server = new FaultServer({ m: always(completion('{"animal": "case", "name": "from-the-model"}')) });
  servers.push(server);
  const url = await server.start();
  const lineup = [
    `import: [${join(TOY_SUITE, 'lib/toy-suite.ts')}, ./lib/scorers.ts]`,
    'adapter: ToyAdapter',
    'scorer: ReplyThrowingScorer',
    'request_types: [prompt]',
    `lan:\n  base_url: ${url}\n  models: [m]`,
  ].join('\n');
  const dir = writeTree(dirs.os(prefix), {
    ...numberedCases(cases),
    'lib/scorers.ts': SCORERS,
    'evals/.llm-evals.config.yml': lineup + '\n',
  });
  return { dir, server };
}

describe('a scorer that throws on real replies', () => {
  it('pauses the run after a few throws, naming its error; without a terminal or --yes it stops there', async ({
    expect,
  }) => {
    const { dir, server } = await throwingProject('llm-evals-scorer-throws-', 40);
    const env = cliEnv(await warmCache(), {});

    const run = await runCli(['compare', '-p', '2', '--display', 'none'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/paused: the scorer threw on \d+ replies \(a bug in the suite's scorer\)/);
    expect(run.stderr).toContain('error: the scorer failed: reply.meta is undefined');
    expect(run.stderr).toContain('stopping: no terminal to ask and no --yes');
    // Three throws pause it; the calls then in flight (2) and a few started on a look at the gate just before finish.
    expect(server.hits.length).toBeGreaterThanOrEqual(3);
    expect(server.hits.length).toBeLessThanOrEqual(10);
    const { snapshot } = savedSnapshot(dir);
    expect(snapshot.status).toBe('aborted');
    expect(snapshot.results).toHaveLength(server.hits.length);
  }, 120_000);
});

describe('Ctrl-C at the pause question, in a terminal', () => {
  it('stops the command within seconds and leaves the run paused for resume', async ({ expect }) => {
    const { dir } = await throwingProject('llm-evals-pause-prompt-', 20);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...cliEnv(await warmCache(), {}),
      NO_COLOR: '1',
      COLUMNS: '120',
    };
    delete env.LLM_EVALS_HELPER;
    // A real terminal: `script` runs the command on a pseudo-terminal and passes what the test types through.
    const command = [process.execPath, BIN, 'compare', '-p', '2', '--display', 'none']
      .map(shellQuote)
      .join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: dir, env, stdio: 'pipe' });
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      for (let i = 0; i < 600 && !seen.includes('Keep running? [y/N]'); i++) await sleep(100);
      expect(seen).toContain('Keep running? [y/N]');
      const asked = Date.now();
      child.stdin.write('\u0003');
      const code = await Promise.race([exited, sleep(20_000).then(() => 'still running')]);
      expect(code, seen).toBe(130);
      expect(Date.now() - asked).toBeLessThan(15_000);
      const runId = /llm-evals resume (\d{8}-\d{6}-\w+)/.exec(seen)![1]!;
      // Nobody answered: the run neither stopped nor went on; it waits in Temporal for `resume` to ask again.
      const status = await runCli(['status', runId, '--json'], {
        cwd: dir,
        env: cliEnv(await warmCache(), {}),
      });
      expect(JSON.parse(status.stdout)).toMatchObject({ state: 'running' });
      expect(seen).not.toContain('stopping: no terminal');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});

function shellQuote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}
