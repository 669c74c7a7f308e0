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
      /^judge: 12 calls \(2 replies × 3 samples × 2 judges\), estimated ([\d,]+) tokens in, ([\d,]+) tokens out, \$(\d+\.\d+), apart from the contenders'$/,
    );
    const [, tokensIn, tokensOut, usd] =
      /estimated ([\d,]+) tokens in, ([\d,]+) tokens out, \$(\d+\.\d+)/.exec(line!)!;
    const n = (s: string) => Number(s.replaceAll(',', ''));
    // 12 verdicts of 60 tokens each; dollars from the section's prices.
    expect(n(tokensOut!)).toBe(12 * 60);
    expect(n(tokensIn!) % 6).toBe(0);
    expect(Number(usd)).toBeCloseTo((n(tokensIn!) * 1 + n(tokensOut!) * 2) / 1e6, 4);
    expect(server.hits).toHaveLength(0);
  }, 60_000);
});
