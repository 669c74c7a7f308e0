import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completion, userText } from '../providers/chat-server.ts';
import { runCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache, type Rule } from '../helpers/fault-server.ts';
import { cliEnv, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';

// `compare --pairwise A B` through the real CLI: a chat-completions server on 127.0.0.1 answers two contenders
// (`toy/m`, `toy/n`, echoing the case) and a judge (`toy/judge`) that grades each reply pass and, asked to compare
// two, always picks the one shown first — the position bias the swap exists to catch.

const { dirs, servers } = cliFixtures();

const firstAlways: Rule = (_n, request) =>
  userText(request).includes('<first>')
    ? completion(JSON.stringify({ reasoning: 'the first reads better', winner: 'first' }))
    : completion(JSON.stringify({ reasoning: 'fine', score: 'pass' }));

async function pairedSuite(rules: Record<string, Rule> = {}) {
  // n's replies differ from m's (a word more), so the two orders of a pair are two prompts.
  const server = new FaultServer({
    judge: firstAlways,
    n: (_n, request) => completion(`${userText(request)} `),
    ...rules,
  });
  servers.push(server);
  const url = await server.start();
  const project = providerSuite(
    dirs,
    `toy:\n  base_url: ${url}\n  models: [m, n]\n` +
      'judge:\n  model: toy/judge\n  rubric: Which names the animal better?\n  scale: pass_fail\n',
  );
  const env = cliEnv(await warmCache(), {
    LLM_EVALS_CACHE_DIR: join(dirs.os('llm-evals-pairwise-cache-'), 'c'),
  });
  const compare = (...more: string[]) =>
    runCli(['compare', '--display', 'tui', '-y', '--allow-failures', '--no-open', ...more], {
      cwd: project,
      env,
    });
  return { server, project, compare };
}

describe('compare --pairwise A B', () => {
  it('judges each pair in both orders; a judge that always picks the first counts no verdict and is 100 % biased', async () => {
    const { server, project, compare } = await pairedSuite();
    const run = await compare('--pairwise', 'toy/m', 'toy/n');
    expect(run.code, run.stderr).toBe(0);
    // Each reply graded once (2 cases × 2 contenders), each case's pair asked in both orders (2 × 2).
    const judged = server.hits.filter((h) => h.model === 'judge');
    const pairs = judged.filter((h) => h.user.includes('<first>'));
    expect(judged).toHaveLength(8);
    expect(pairs).toHaveLength(4);
    // Both orders of a case were shown: m's reply first once and n's first once.
    expect(new Set(pairs.map((h) => h.user)).size).toBe(4);
    const { snapshot } = savedSnapshot(project);
    const paired = snapshot.results.filter((r) => r.diagnostics.pairwise);
    expect(paired).toHaveLength(2);
    for (const r of paired)
      expect(r.diagnostics.pairwise).toMatchObject({ readings: { 'toy/judge': ['first', 'first'] } });
    expect(run.stdout).toContain(
      'toy/m vs toy/n over 2 cases: 0 wins, 0 ties, 0 losses (p = 1.00); 2 position-inconsistent',
    );
    expect(run.stdout).toMatch(/toy\/judge: 0 wins, .*2 position-inconsistent; position bias 100(\.0)?%/);

    // The same run again: every answer, verdict and pairwise reading from the reply cache.
    const again = await compare('--pairwise', 'toy/m', 'toy/n');
    expect(again.code, again.stderr).toBe(0);
    expect(server.hits.filter((h) => h.model === 'judge')).toHaveLength(8);
  }, 120_000);

  it("pays A's answer once when A's experiment and B's pairwise round ask for it at the same moment", async () => {
    // m answers slowly, n and the judge at once: B's (n's) case reaches its pairwise round, and asks m for its
    // answer, while A's (m's) own experiment still waits for the same answer. The worker shares that one call.
    const { server, project, compare } = await pairedSuite({
      m: (_n, request) => ({ ...completion(userText(request)), delayMs: 1500 }),
    });
    const run = await compare('-j', '2', '--pairwise', 'toy/m', 'toy/n');
    expect(run.code, run.stderr).toBe(0);
    const answers = server.hits.filter((h) => h.model === 'm');
    expect(answers.map((h) => h.user).sort()).toEqual([...new Set(answers.map((h) => h.user))].sort());
    expect(answers).toHaveLength(2);
    // Both of n's cases still have their pair read, in both orders.
    const { snapshot } = savedSnapshot(project);
    expect(snapshot.results.filter((r) => r.diagnostics.pairwise)).toHaveLength(2);
    expect(server.hits.filter((h) => h.model === 'judge' && h.user.includes('<first>'))).toHaveLength(4);
  }, 120_000);

  it('refuses a contender the lineup does not hold, naming the value, before any call', async () => {
    const { server, compare } = await pairedSuite();
    const run = await compare('--pairwise', 'toy/m', 'toy/nope');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--pairwise: "toy/nope" is not a contender of the lineup');
    expect(server.hits).toHaveLength(0);
    const uncached = await compare('--pairwise', 'toy/m', 'toy/n', '--no-cache');
    expect(uncached.code).toBe(2);
    expect(uncached.stderr).toContain("--pairwise: reads A's replies from the reply cache");
    expect(server.hits).toHaveLength(0);
  }, 60_000);
});
