import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Received } from '../providers/chat-server.ts';
import { completion, userText } from '../providers/chat-server.ts';
import { runCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache, type Rule } from '../helpers/fault-server.ts';
import { cliEnv, providerSuite } from '../providers/cli-suite.ts';

// The judge's variance in the report, through the real CLI: a panel of three judges on a chat-completions server on
// 127.0.0.1, three samples each per reply. j1 says pass, pass, then fail on each reply (unstable, majority pass); j2
// always fails; j3 always passes. The panel passes each reply.

const { dirs, servers } = cliFixtures();

const shown = (request: Received) => /<reply>\n([\s\S]*?)\n<\/reply>/.exec(userText(request))?.[1] ?? '';
const verdict = (score: string) => completion(JSON.stringify({ reasoning: 'checked', score }));
const seen = new Map<string, number>();
const flaky: Rule = (_n, request) => {
  const n = seen.get(shown(request)) ?? 0;
  seen.set(shown(request), n + 1);
  return verdict(n < 2 ? 'pass' : 'fail');
};

describe("the judge's variance and panel in the report", () => {
  it('lists the unstable replies, each judge’s self-agreement, its mean and how often it agreed with the panel', async () => {
    const server = new FaultServer({ j1: flaky, j2: () => verdict('fail'), j3: () => verdict('pass') });
    servers.push(server);
    const url = await server.start();
    const project = providerSuite(
      dirs,
      `toy:\n  base_url: ${url}\n  models: [m]\n` +
        'judge:\n  models: [toy/j1, toy/j2, toy/j3]\n  rubric: Is it an animal?\n  scale: pass_fail\n  samples: 3\n',
    );
    const env = cliEnv(await warmCache(), { LLM_EVALS_CACHE_DIR: join(dirs.os('llm-evals-variance-'), 'c') });
    const run = await runCli(['compare', '--display', 'tui', '-y', '--allow-failures', '--no-open'], {
      cwd: project,
      env: { ...env, COLUMNS: '400' },
    });
    expect(run.code, run.stderr).toBe(0);
    expect(server.hits.filter((h) => h.model.startsWith('j'))).toHaveLength(18);
    expect(run.stdout).toContain(
      'toy/j1: self-agreement 0.0% of 2 replies; unstable: pets/clear/001 by toy/m, pets/clear/002 by toy/m; ' +
        'mean 100.0%; agreed with the panel 100.0% of 2',
    );
    expect(run.stdout).toContain(
      'toy/j2: self-agreement 100.0% of 2 replies; no unstable reply; mean 0.0%; agreed with the panel 0.0% of 2',
    );
    expect(run.stdout).toContain(
      'toy/j3: self-agreement 100.0% of 2 replies; no unstable reply; mean 100.0%',
    );
  }, 120_000);
});
