import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { cliEnv, providerSuite } from '../providers/cli-suite.ts';

// `compare -n` estimates the judge's calls apart from the contenders', through the real CLI: replies × samples ×
// panel size, priced by the judge models' prices (here the endpoint section's, $1 and $2 per million tokens).

const { dirs, servers } = cliFixtures();

describe('compare -n with a judge', () => {
  it('prints the judge calls on a line of their own, priced by the judge models', async () => {
    const server = new FaultServer({});
    servers.push(server);
    const url = await server.start();
    const project = providerSuite(
      dirs,
      `toy:\n  base_url: ${url}\n  prices: { input: 1, output: 2 }\n  models: [m]\n` +
        'judge:\n  models: [toy/a, toy/b]\n  rubric: Is it an animal?\n  scale: pass_fail\n  samples: 3\n',
    );
    const env = cliEnv(await warmCache(), {
      LLM_EVALS_CACHE_DIR: join(dirs.os('llm-evals-judge-cache-'), 'c'),
    });
    const run = await runCli(['compare', '-n'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith('judge: '));
    expect(line, run.stdout).toMatch(
      /^judge: 12 calls \(2 replies × 3 samples × 2 judges\), estimated ([\d,]+) tokens in, ([\d,]+) tokens out, \$(\d+\.\d+), apart from the contenders'; at most: /,
    );
    const [, tokensIn, tokensOut, usd] =
      /estimated ([\d,]+) tokens in, ([\d,]+) tokens out, \$(\d+\.\d+)/.exec(line!)!;
    const n = (s: string) => Number(s.replaceAll(',', ''));
    // 12 verdicts of one guessed size each (no saved run to measure one by); dollars from the section's prices.
    expect(n(tokensOut!) % 12).toBe(0);
    expect(n(tokensIn!) % 6).toBe(0);
    expect(Number(usd)).toBeCloseTo((n(tokensIn!) * 1 + n(tokensOut!) * 2) / 1e6, 4);
    expect(server.hits).toHaveLength(0);
  }, 60_000);

  /** `compare -n` with these flags over a lineup of two contenders and a panel of two judges: its judge line. */
  async function judgeLine(section: string, flags: string[]) {
    const server = new FaultServer({});
    servers.push(server);
    const url = await server.start();
    const project = providerSuite(
      dirs,
      `toy:\n  base_url: ${url}\n  api_key_env: TOY_KEY\n  prices: { input: 100, output: 200 }\n${section}` +
        '  models: [m, n]\n' +
        'judge:\n  models: [toy/a, toy/b]\n  rubric: Is it an animal?\n  scale: pass_fail\n  samples: 3\n',
    );
    const env = cliEnv(await warmCache(), {
      LLM_EVALS_CACHE_DIR: join(dirs.os('llm-evals-judge-cache-'), 'c'),
      TOY_KEY: 'sk-toy',
    });
    const run = await runCli(['compare', '-n', ...flags], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(server.hits).toHaveLength(0);
    const line = run.stdout.split('\n').find((l) => l.startsWith('judge: '));
    const m = /^judge: (\d+) calls .*estimated ([\d,]+) tokens in, ([\d,]+) tokens out, \$(\d+\.\d+)/.exec(
      line!,
    );
    expect(m, run.stdout).not.toBeNull();
    const n = (s: string) => Number(s.replaceAll(',', ''));
    return { line: line!, calls: n(m![1]!), in: n(m![2]!), out: n(m![3]!), usd: Number(m![4]) };
  }

  it("counts --pairwise A B's readings: each of B's cases, both orders, each judge", async () => {
    const plain = await judgeLine('', []);
    const paired = await judgeLine('', ['--pairwise', 'toy/m', 'toy/n']);
    // 2 contenders × 2 cases × 3 samples × 2 judges = 24 verdicts; then n's 2 cases × 2 orders × 2 judges.
    expect(plain.calls).toBe(24);
    expect(paired.line).toContain(
      'judge: 32 calls (4 replies × 3 samples × 2 judges, 2 pairs × 2 orders × 2 judges), estimated',
    );
    expect(paired.in).toBeGreaterThan(plain.in);
    // Each reading writes what a verdict writes.
    expect(paired.out).toBe((plain.out / 24) * 32);
    expect(paired.usd).toBeGreaterThan(plain.usd);
  }, 60_000);

  it('prices the verdicts at the batch price under --batch, as the contenders', async () => {
    const direct = await judgeLine('  batch: true\n', []);
    const batch = await judgeLine('  batch: true\n', ['--batch']);
    expect([batch.calls, batch.in, batch.out]).toEqual([direct.calls, direct.in, direct.out]);
    expect(batch.usd).toBeCloseTo(direct.usd / 2, 4);
  }, 60_000);
});
