import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../helpers/cli.ts';
import { editFile, REPO, TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const EXTRACTION = join(REPO, 'examples/extraction-suite');
const LEFTOVERS = ['.llm-evals', 'evals/results', 'log', 'tmp'];

/** A copy of the extraction suite under the repository's tmp/, so its `import 'llm-evals'` resolves. */
function extractionCopy(): string {
  const dir = dirs.inRepo('extraction-');
  cpSync(EXTRACTION, dir, {
    recursive: true,
    filter: (src) => !LEFTOVERS.some((n) => src.endsWith(`/${n}`)),
  });
  return dir;
}

/** Runs the CLI on the shared test server, each run on a task queue of its own. */
const onServer = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) =>
  runCli(args, {
    cwd,
    env: {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `reports-${Date.now()}-${Math.random()}`,
      ...env,
    },
  });

const results = (dir: string) => readdirSync(join(dir, 'evals/results')).sort();

describe('the extraction suite through the real CLI', () => {
  let dir: string;
  let compare: Awaited<ReturnType<typeof runCli>>;

  beforeAll(async () => {
    dir = extractionCopy();
    compare = await onServer(['compare', '--no-open', '-o', 'out/report.html', '--scores'], dir);
  }, 120_000);

  it('compare ranks by wscore and names a best value per dataset', () => {
    expect(compare.code, compare.stderr).toBe(0);
    expect(compare.stdout).toContain('Standings by dataset, ranked by wscore');
    expect(compare.stdout).toMatch(/│ dataset +│ model +│ effort +│ temp +│ wscore +│ score +│ exact +│/);
    const lines = compare.stdout.split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(/^landscaping: best and best value pico\/mini t=0\.1, 100\.0% wscore/),
    );
    // Four cases per dataset tell no contender from the best: all are tied, so the best value is the cheapest of them.
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^roofing: best swift\/flash t=0\.1, .*tied with pico\/mini t=0\.1 \(p = [\d.]+, 4 cases\).*; best value pico\/mini t=0\.1, /,
      ),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^tax-preparation: best sage\/scholar effort=low t=0\.1, .*; best value swift\/flash t=0\.1, /,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^all datasets: best /));
  });

  it("closes with tokens used within ±25 % of compare -n's estimate, in and out", () => {
    const m =
      /used vs estimated: ([\d,]+) vs ([\d,]+) \S+ tokens in, ([\d,]+) vs ([\d,]+) \S+ tokens out/.exec(
        compare.stderr,
      );
    expect(m, compare.stderr).not.toBeNull();
    const [inUsed, inEstimated, outUsed, outEstimated] = m!.slice(1).map((n) => Number(n.replace(/,/g, '')));
    expect(Math.abs(inUsed! / inEstimated! - 1)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(outUsed! / outEstimated! - 1)).toBeLessThanOrEqual(0.25);
  });

  it("lists every experiment with its tracker link: the local tracker's file", () => {
    const links = compare.stdout.match(/\/log\/llm-evals\/\d{3}-[a-z-]+\.\S+\.json/g) ?? [];
    expect(new Set(links).size).toBe(12);
  });

  it('writes the HTML report that render reproduces byte for byte from the snapshot', async () => {
    const [snapshot, ...others] = results(dir).filter((f) => f.endsWith('.json'));
    expect(others).toEqual([]);
    expect(compare.stderr).toContain(`snapshot saved: evals/results/${snapshot}`);
    expect(compare.stderr).toContain('report written: out/report.html');
    const rendered = await runCli(['render', `evals/results/${snapshot}`, '-o', 'rendered.html'], {
      cwd: dir,
    });
    expect(rendered.code, rendered.stderr).toBe(0);
    const original = readFileSync(join(dir, 'out/report.html'));
    expect(readFileSync(join(dir, 'rendered.html')).equals(original)).toBe(true);
    expect(original.toString()).toContain('<h3>tax-preparation</h3>');
  });

  it('render --format json re-emits the snapshot it read', async () => {
    const [snapshot] = results(dir).filter((f) => f.endsWith('.json'));
    const json = await runCli(['render', `evals/results/${snapshot}`, '--format', 'json'], { cwd: dir });
    expect(JSON.parse(json.stdout)).toEqual(
      JSON.parse(readFileSync(join(dir, 'evals/results', snapshot!), 'utf8')),
    );
  });
});

describe('opening the report', () => {
  it.each<
    [string, (dir: string) => NodeJS.ProcessEnv, (dir: string, stderr: string) => void | Promise<void>]
  >([
    [
      'runs $BROWSER on the HTML written beside the snapshot',
      (dir) => {
        const browser = join(dir, 'browser.sh');
        writeFileSync(browser, `#!/bin/sh\necho "$1" > "${join(dir, 'opened.txt')}"\n`);
        chmodSync(browser, 0o755);
        return { BROWSER: browser };
      },
      async (dir) => {
        // The browser runs detached, so it may write a moment after the CLI has exited.
        for (let i = 0; i < 100 && !existsSync(join(dir, 'opened.txt')); i++) await sleep(20);
        const html = results(dir).find((f) => f.endsWith('.html'))!;
        expect(readFileSync(join(dir, 'opened.txt'), 'utf8').trim()).toBe(join(dir, 'evals/results', html));
      },
    ],
    [
      'never fails the run when no browser exists',
      () => ({ BROWSER: '/nonexistent/browser' }),
      (_, stderr) =>
        expect(stderr).toMatch(/not opened \(could not run \/nonexistent\/browser: .*\); the report is at /),
    ],
  ])(
    '%s',
    async (_, setup, check) => {
      const dir = extractionCopy();
      const { code, stderr } = await onServer(
        ['compare', '-d', 'landscaping', '--display', 'browser'],
        dir,
        setup(dir),
      );
      expect(code, stderr).toBe(0);
      await check(dir, stderr);
    },
    120_000,
  );
});

describe('weights', () => {
  it.each([
    ['tokens', 'tokens: -1'],
    ['an unknown metric', 'accuracy: 3'],
  ])(
    'refuses %s before any call, naming the file, key and value',
    async (_, line) => {
      const dir = extractionCopy();
      editFile(join(dir, 'evals/.llm-evals.config.yml'), (t) =>
        t.replace('    exact: 10', `    ${line}\n    exact: 10`),
      );
      const [key, value] = line.split(': ') as [string, string];
      for (const command of ['compare', 'weights']) {
        const { code, stderr } = await onServer([command], dir);
        expect(code).toBe(2);
        expect(stderr).toContain(
          `evals/.llm-evals.config.yml: weighted_score.weights.${key}: cannot be weighted`,
        );
        expect(stderr).toContain(`got ${value}`);
        expect(stderr).not.toContain('started');
      }
      expect(existsSync(join(dir, 'evals/results'))).toBe(false);
    },
    60_000,
  );

  it('lists a scorer metric left unweighted in red', () => {
    const dir = extractionCopy();
    editFile(join(dir, 'evals/.llm-evals.config.yml'), (t) => t.replace(/^ {4}invalid_rate: .*\n/m, ''));
    const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '1' };
    delete env.NO_COLOR;
    const { stdout, status } = spawnSync(process.execPath, [BIN, 'weights'], {
      cwd: dir,
      env,
      encoding: 'utf8',
    });
    expect(status).toBe(0);
    expect(stdout).toContain('\u001b[31minvalid_rate\u001b[39m');
    expect(stdout).toContain('\u001b[31mnot weighted\u001b[39m');
  });
});
