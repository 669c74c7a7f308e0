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

    // 2 of 30 cases answered wrong: worse, but too few cases to tell from chance, so unchanged and exit 0 in CI.
    wrong = 2;
    const few = await runCliLong(
      ['compare', '--display', 'none', '--no-open', '--no-cache', '--baseline', baseline],
      { cwd: project, env },
    );
    expect(few.code, few.stderr).toBe(0);
    expect(few.stderr).toContain('gate: no regression against');
    expect(few.stderr).toMatch(/lan\/m on pets: unchanged \(-3\.3 points, n = 30\)/);

    // Not in CI, a regression is said and does not fail the command (each CLI here has a reply cache of its own).
    wrong = 20;
    const local = await runCliLong(['compare', '--display', 'none', '--no-open', '--baseline', baseline], {
      cwd: project,
      env: { ...env, CI: '' },
    });
    expect(local.code, local.stderr).toBe(0);
    expect(local.stderr).toContain('gate: 1 regressed against');

    // JUnit for CI's test listing, written whole to the file named: a failed test case per regressed verdict.
    wrong = 20;
    const junit = join(project, 'gate.xml');
    const listed = await runCliLong(
      ['compare', '--display', 'none', '--no-open', '--baseline', baseline, '--format', 'junit', '-o', junit],
      { cwd: project, env },
    );
    expect(listed.code, listed.stderr).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('<testsuites name="llm-evals" tests="1" failures="1">');
    expect(xml).toMatch(
      /<testcase classname="llm-evals.gate" name="lan\/m on pets"><failure message="worse by 33\.3 points \(p &lt; 0\.0001 after Holm\)"/,
    );

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
    const noSchedule = await runCli(['compare', '--display', 'none', '--baseline', 'schedule:weekly'], {
      cwd: project,
      env,
    });
    expect(noSchedule.code, noSchedule.stderr).toBe(2);
    expect(noSchedule.stderr).toContain(
      '--baseline: "schedule:weekly": weekly: no such schedule in this project',
    );
    for (const alone of [
      ['--min-drop', '5'],
      ['--format', 'markdown'],
    ]) {
      const refused = await runCli(['compare', '--display', 'none', ...alone], { cwd: project, env });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain('--baseline RUN|FILE');
    }
    // A baseline of another suite (its cases elsewhere), an unknown --fail-on, --sample 0: refused before any call.
    const other = providerSuite(
      dirs,
      `lan:\n  base_url: ${url}\n  models: [m]\n`,
      numberedCases(4, ['toys']),
    );
    const foreign = await runCli(['compare', '--display', 'none', '--baseline', baseline], {
      cwd: other,
      env,
    });
    expect(foreign.code, foreign.stderr).toBe(2);
    expect(foreign.stderr).toContain(
      `--baseline: "${baseline}" shares no case with this run (nothing to compare)`,
    );
    const failOn = await runCli(
      ['compare', '--display', 'none', '--baseline', baseline, '--fail-on', 'sometimes'],
      { cwd: project, env },
    );
    expect(failOn.code, failOn.stderr).toBe(2);
    expect(failOn.stderr).toContain('sometimes');
    const none = await runCli(['compare', '--display', 'none', '--sample', '0'], { cwd: project, env });
    expect(none.code, none.stderr).toBe(2);
    expect(none.stderr).toMatch(/--sample.*0/);
    expect(server.hits.length).toBe(calls);
  }, 240_000);
});

describe('compare --sample', () => {
  it('runs the same N cases per dataset for a seed, says it is a sample and what it can tell apart', async ({
    expect,
  }) => {
    const server = new FaultServer({});
    servers.push(server);
    const url = await server.start();
    const project = providerSuite(
      dirs,
      `lan:\n  base_url: ${url}\n  models: [m]\n`,
      numberedCases(40, ['north', 'south']),
    );
    const env = cliEnv(await warmCache(), {});
    const called = async (seed: string) => {
      const before = server.hits.length;
      const run = await runCliLong(
        ['compare', '--display', 'none', '--no-open', '--sample', '4', '--seed', seed],
        {
          cwd: project,
          env,
        },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(
        `a sample: 4 of 20 cases per dataset, stratified by variant (--seed ${seed}), 8 in all`,
      );
      expect(run.stderr).toMatch(
        /per dataset, with 4 cases a difference under ~\d+ points cannot be told from noise/,
      );
      return server.hits
        .slice(before)
        .map((h) => (JSON.parse(h.user) as { name: string }).name)
        .sort();
    };
    const first = await called('7');
    expect(first).toHaveLength(8);
    expect(first.filter((n) => n.startsWith('north/'))).toHaveLength(4);
    expect(await called('7')).toEqual(first);
    expect(await called('8')).not.toEqual(first);

    // Gated on a sample, the report says it is one, of how many, and the drop the gate can detect on it.
    const results = join(project, 'evals/results');
    const baseline = join(
      results,
      readdirSync(results).find((f) => f.endsWith('.json'))!,
    );
    const gated = await runCliLong(
      [
        'compare',
        '--no-open',
        '--sample',
        '4',
        '--seed',
        '7',
        '--baseline',
        baseline,
        '--format',
        'markdown',
      ],
      { cwd: project, env },
    );
    expect(gated.code, gated.stderr).toBe(0);
    expect(gated.stdout).toContain(
      '⚠️ A sample: 4 of 20 cases per dataset (--seed 7); at 80 % power this gate detects a drop of ~70 points or more.',
    );
    expect(gated.stderr).toContain(
      'a sample (4 of 20 cases per dataset): at 80 % power the gate detects a drop of ~70',
    );
  }, 180_000);
});
