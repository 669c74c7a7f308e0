import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { runCli, runCliLong } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { completion } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';
import { readdirSync } from 'node:fs';

// A gate on a pull request: `compare --baseline` judges the run against a baseline run's snapshot, paired by case,
// and fails (in CI) only on a significant regression; its Markdown lands in GitHub's step summary.

const { dirs, servers } = cliFixtures();

describe('compare --baseline', () => {
  it('passes an unchanged run, fails a regressed one in CI with its table in the step summary, refuses a bad baseline', async ({
    expect,
  }) => {
    let wrong = 0;
    // Once `wrong` is set, that many of the next calls are answered wrong.
    const server = new FaultServer({
      m: () => (wrong > 0 ? (wrong--, completion('{"animal": "case", "name": "nobody"}')) : undefined),
    });
    servers.push(server);
    const url = await server.start();
    const project = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [m]\n`, numberedCases(30));
    const summary = join(dirs.os('llm-evals-gate-summary-'), 'summary.md');
    writeFileSync(summary, '');
    const env = cliEnv(await warmCache(), { CI: '1', GITHUB_STEP_SUMMARY: summary });
    const results = join(project, 'evals/results');

    const first = await runCliLong(['compare', '--display', 'none', '--no-open'], { cwd: project, env });
    expect(first.code, first.stderr).toBe(0);
    const baseline = join(
      results,
      readdirSync(results).find((f) => f.endsWith('.json'))!,
    );

    // The same answers again: unchanged, exit 0.
    const same = await runCliLong(['compare', '--display', 'none', '--no-open', '--baseline', baseline], {
      cwd: project,
      env,
    });
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain('gate: no regression against');
    expect(same.stderr).toMatch(/lan\/m on pets: unchanged \(0 points, n = 30\)/);

    // 20 of 30 cases now answered wrong (the toy scorer gives half marks for the right animal), called again:
    // regressed, exit 1 where CI is set.
    wrong = 20;
    const worse = await runCliLong(
      ['compare', '--display', 'none', '--no-open', '--no-cache', '--baseline', baseline],
      { cwd: project, env },
    );
    expect(worse.code, worse.stderr).toBe(1);
    expect(worse.stderr).toMatch(
      /gate: 1 regressed against \S+\n {2}lan\/m on pets: worse by 33\.3 points \(p < 0\.0001 after Holm\)/,
    );
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toContain('### ✅ llm-evals: no regression against');
    expect(markdown).toContain('### ❌ llm-evals: 1 regression against');
    expect(markdown).toMatch(/\| lan\/m \| pets \| 100\.0% → 66\.7% \| −33\.3 \[/);

    // Not in CI, a regression is said and does not fail the command (each CLI here has a reply cache of its own).
    wrong = 20;
    const local = await runCliLong(['compare', '--display', 'none', '--no-open', '--baseline', baseline], {
      cwd: project,
      env: { ...env, CI: '' },
    });
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).toContain('gate: 1 regressed against');

    // A baseline that cannot be read: exit 2, one message naming the flag and the value, nothing called.
    const calls = server.hits.length;
    const bad = await runCli(['compare', '--display', 'none', '--baseline', 'nope.json'], {
      cwd: project,
      env,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--baseline');
    expect(bad.stderr).toContain('nope.json');
    expect(bad.stderr).not.toMatch(/^\s+at /m);
    const alone = await runCli(['compare', '--display', 'none', '--min-drop', '5'], { cwd: project, env });
    expect(alone.code).toBe(2);
    expect(server.hits.length).toBe(calls);
  }, 240_000);
});
