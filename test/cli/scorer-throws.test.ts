import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { always, FaultServer, warmCache } from '../helpers/fault-server.ts';
import { TempDirs, TOY_SUITE, writeTree } from '../helpers/suite-dir.ts';
import { completion } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, savedSnapshot } from '../providers/cli-suite.ts';

// A scorer that throws on real replies (not on the expected answers, which are checked before any call) is a bug in
// the suite's code: every call after it is paid for a case that ends as an error. The run pauses after a few throws,
// naming the scorer's error, as it does after a streak of failed calls.

const dirs = new TempDirs();
const servers: FaultServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  dirs.removeAll();
});

const SCORERS = `import type { Case, Reply, Score } from 'llm-evals';
import { ToyScorer } from '${join(TOY_SUITE, 'lib/toy-suite.ts')}';

export class ReplyThrowingScorer extends ToyScorer {
  call(kase: Case, reply: Reply): Score {
    if (reply.raw.includes('"from-the-model"')) throw new Error('reply.meta is undefined');
    return super.call(kase, reply);
  }
}
`;

describe('a scorer that throws on real replies', () => {
  it('pauses the run after a few throws, naming its error; without a terminal or --yes it stops there', async ({
    expect,
  }) => {
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
    const dir = writeTree(dirs.os('llm-evals-scorer-throws-'), {
      ...numberedCases(40),
      'lib/scorers.ts': SCORERS,
      'evals/.llm-evals.config.yml': lineup + '\n',
    });
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
