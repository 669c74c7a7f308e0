import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { TempDirs, writeTree } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';
import { savedSnapshots } from '../providers/cli-suite.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const CASES = 40;

/**
 * A suite of 40 numbered cases and five fake models: `oracle` and its equal `copy` always right, `mostly` wrong on
 * every fourth case (30 of 40), `half` on every odd one, and `twin`, on a cheaper provider, wrong on 2 of 40.
 */
const HELPER = `import { Adapter, FakeProvider, Scorer } from 'llm-evals';

const numberOf = (text) => Number(/\\d+/.exec(text)[0]);
const calls = new Map();
const answer = (right) => (request) => {
  const n = numberOf(request.user);
  return JSON.stringify({ n: right(n) ? n : -1 });
};

class NumberAdapter extends Adapter {
  async call(kase, model) {
    // gappy's call fails on every fourth case (10 of 40), with an error that names the case.
    if (model.id === 'fake/gappy' && numberOf(kase.input) % 4 === 0) throw new Error(\`this worker has no case \${kase.key}\`);
    const response = await model.complete({ system: 'Repeat the number.', user: kase.input, json: true });
    return { output: JSON.parse(response.text), raw: response.text, usage: response.usage };
  }
}

class ExactScorer extends Scorer {
  metrics() {
    return [{ name: 'exact', description: '1 when the number is right.', primary: true }];
  }
  call(kase, reply) {
    const right = reply.output?.n === kase.expected.n ? 1 : 0;
    return { value: right, metrics: { exact: right }, outcomes: {}, diagnostics: {} };
  }
}

export default {
  name: 'statistics',
  root: import.meta.dirname,
  cases: 'datasets/*/cases/**/input.txt',
  adapter: new NumberAdapter(),
  scorer: new ExactScorer(),
  providers: [
    new FakeProvider({
      name: 'fake',
      models: {
        oracle: answer(() => true),
        copy: answer(() => true),
        gappy: answer(() => true),
        mostly: answer((n) => n % 4 !== 0),
        half: answer((n) => n % 2 === 0),
        // Right on every case but each fifth, where it is wrong on its second call: flaky over repeats.
        moody: (request) => {
          const n = numberOf(request.user);
          calls.set(n, (calls.get(n) ?? 0) + 1);
          return JSON.stringify({ n: n % 5 === 0 && calls.get(n) === 2 ? -1 : n });
        },
      },
    }),
    new FakeProvider({ name: 'cheap', models: { twin: answer((n) => n % 20 !== 0) }, inputPrice: 1e-7, outputPrice: 1e-7 }),
  ],
};
`;

const CONFIG = `project: statistics
request_types: [prompt]
defaults:
  parallelism: 8
results:
  display: tui
fake:
  models: [oracle, copy, mostly, half]
cheap:
  models: [twin]
`;

function suite(): string {
  const files: Record<string, string> = {
    'evals/eval_helper.mjs': HELPER,
    'evals/.llm-evals.config.yml': CONFIG,
  };
  for (let n = 1; n <= CASES; n++) {
    const folder = `evals/datasets/numbers/cases/plain/${String(n).padStart(3, '0')}`;
    files[`${folder}/input.txt`] = `The number is ${n}.`;
    files[`${folder}/expected.json`] = JSON.stringify({ n });
  }
  return writeTree(dirs.inRepo('statistics-'), files);
}

const CHROMIUM = '/usr/bin/chromium';

describe('paired statistics through the real CLI: always right (twice), mostly, half and nearly right', () => {
  let dir: string;
  let compare: CliResult;
  let snapshot: Snapshot;

  const env = () => ({
    TEMPORAL_ADDRESS: temporalAddress(),
    LLM_EVALS_TASK_QUEUE: `statistics-${Date.now()}`,
  });
  const saved = () => savedSnapshots(join(dir, 'evals/results')).map((s) => s.file);

  beforeAll(async () => {
    dir = suite();
    compare = await runCli(['compare', '--no-open', '-o', 'out/report.html'], { cwd: dir, env: env() });
    const [file] = existsSync(join(dir, 'evals/results')) ? saved() : [];
    snapshot = JSON.parse(readFileSync(join(dir, 'evals/results', file!), 'utf8')) as Snapshot;
  }, 180_000);

  const key = (id: string) => snapshot.contenders.find((c) => c.id === id)!.key;
  const versus = (id: string) =>
    snapshot.comparisons!.find((c) => c.dataset === 'numbers' && c.b === key(id))!;

  it('JSON: the oracle leads mostly and half significantly, and is tied with its copy and the twin', () => {
    expect(compare.code, compare.stderr).toBe(0);
    const best = snapshot.standings!.find((s) => s.dataset === 'numbers' && s.best)!;
    expect(best.contender).toBe(key('fake/oracle'));
    expect(versus('fake/mostly')).toMatchObject({
      metric: 'exact',
      n: 40,
      meanDiff: 0.25,
      test: 'mcnemar-exact',
    });
    expect(versus('fake/mostly').pAdjusted).toBeLessThan(0.05);
    expect(versus('fake/half')).toMatchObject({ n: 40, meanDiff: 0.5 });
    expect(versus('fake/half').pAdjusted).toBeLessThan(0.001);
    expect(versus('fake/copy')).toMatchObject({ n: 40, meanDiff: 0, pValue: 1, pAdjusted: 1, ci95: [0, 0] });
    // Two discordant pairs, both the oracle's: p = 0.5, and 1 once Holm weighs it among four comparisons.
    expect(versus('cheap/twin')).toMatchObject({ n: 40, test: 'mcnemar-exact' });
    expect(versus('cheap/twin').meanDiff).toBeCloseTo(0.05, 12);
    expect(versus('cheap/twin').pValue).toBeCloseTo(0.5, 12);
    const tied = snapshot.standings!.filter((s) => s.dataset === 'numbers' && s.tiedWithBest);
    expect(tied.map((s) => s.contender).sort()).toEqual([key('cheap/twin'), key('fake/copy')]);
    // The oracle's lead over mostly: 10 discordant pairs, all its way, so the interval stays above 0.
    expect(versus('fake/mostly').ci95[0]).toBeGreaterThan(0);
  });

  it('TUI: the tied are marked = #1, the verdict names them, and the best value is the cheaper tied twin', () => {
    const rows = compare.stdout.split('\n').filter((l) => l.startsWith('│ numbers'));
    expect(rows.find((r) => r.includes('cheap/twin'))).toContain('cheap/twin = #1');
    expect(rows.find((r) => r.includes('fake/copy'))).toContain('fake/copy = #1');
    for (const id of ['fake/oracle', 'fake/mostly', 'fake/half']) {
      expect(rows.find((r) => r.includes(id))).not.toContain('= #1');
    }
    expect(compare.stdout).toMatch(
      /numbers: best fake\/oracle, 100\.0% exact at \$[\d.]+, tied with fake\/copy \(p = 1\.00, 40 cases\), cheap\/twin\s+\(p = 1\.00, 40\s+cases\); best value\s+cheap\/twin, 95\.0% exact/,
    );
  });

  it.skipIf(!existsSync(CHROMIUM))(
    'HTML: the twin’s # cell shows = #1 with the p-value in its tooltip',
    async () => {
      const context = await chromium.launchPersistentContext(join(dir, 'profile'), {
        executablePath: CHROMIUM,
        headless: true,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
      });
      try {
        const page = await context.newPage();
        await page.goto(pathToFileURL(join(dir, 'out/report.html')).href);
        const twin = page.locator('#datasets tr', { hasText: 'twin' }).first();
        const mark = twin.locator('td').first();
        // The mark, then the difference from the best in points and its adjusted p.
        expect(await mark.textContent()).toMatch(/^= #1−5\.0p=1\.00$/);
        expect(await mark.getAttribute('title')).toContain(
          'over 40 shared cases is not significant (p = 1.00',
        );
        // Mostly is significantly worse than the oracle: its # cell says so as plainly as the twin's says tied.
        const mostly = page.locator('#datasets tr', { hasText: 'mostly' }).first();
        const worse = mostly.locator('td').first();
        expect(await worse.textContent()).toMatch(/^< #1−25\.0p=0\.0\d+$/);
        expect(await worse.getAttribute('class')).toBe('num worse');
        expect(await worse.getAttribute('title')).toMatch(
          /^Worse than the best \(p < 0\.05\): 25\.0 points below the best in exact \(95 % interval −\d+\.\d to −\d+\.\d; p = 0\.0\d+ Holm-adjusted, 40 cases\)\.$/,
        );
        expect(
          await page.locator('#datasets p', { hasText: 'Tied with it' }).first().textContent(),
        ).toContain('twin (p = 1.00, 40 cases)');
      } finally {
        await context.close();
      }
    },
  );

  it('compare -n: the smallest difference 40 cases can detect, from the saved run’s spread', async () => {
    const dry = await runCli(['compare', '-n'], { cwd: dir, env: { TEMPORAL_ADDRESS: '' } });
    expect(dry.code, dry.stderr).toBe(0);
    // Against the oracle, per-case differences have standard deviations 0 (copy), 0.2207 (twin), 0.4385 (mostly) and
    // 0.5064 (half): the median 0.3296, and (1.96 + 0.8416) · 0.3296 / √40 = 0.146.
    expect(dry.stdout).toContain(
      `with 40 cases a difference under ~15 points cannot be told from noise (80 % power at α = 0.05, paired; ` +
        `the spread of run ${snapshot.runId}'s per-case differences, 0.33)`,
    );
  });

  it('diff: a real drop is significant, a one-case wobble is noise, and the flipped cases show both replies', async () => {
    // The next run: mostly loses cases 1–12 it got right (9 of them), half loses case 2 alone.
    const helper = join(dir, 'evals/eval_helper.mjs');
    writeFileSync(
      helper,
      readFileSync(helper, 'utf8')
        .replace('mostly: answer((n) => n % 4 !== 0)', 'mostly: answer((n) => n % 4 !== 0 && n > 12)')
        .replace('half: answer((n) => n % 2 === 0)', 'half: answer((n) => n % 2 === 0 && n !== 2)'),
    );
    const again = await runCli(['compare', '--no-open'], { cwd: dir, env: env() });
    expect(again.code, again.stderr).toBe(0);
    const [a, b] = saved().map((f) => join('evals/results', f));
    const diff = await runCli(['diff', a!, b!], { cwd: dir, env: { TEMPORAL_ADDRESS: '' } });
    expect(diff.code, diff.stderr).toBe(0);
    const row = (id: string) => diff.stdout.split('\n').find((l) => l.includes(`│ ${id} `))!;
    expect(row('fake/mostly')).toMatch(/75\.0% → 52\.5% \(-22\.5\).*significant \(p = 0\.0\d+, 40 cases\)/);
    expect(row('fake/half')).toMatch(/50\.0% → 47\.5% \(-2\.5\).*noise \(p = 1\.00, 40 cases\)/);
    expect(row('fake/oracle')).toContain('noise (p = 1.00, 40 cases)');
    expect(diff.stdout).toContain('fake/mostly on numbers: 9 right → wrong, 0 wrong → right');
    expect(diff.stdout).toContain('right → wrong numbers/plain/001: "{\\"n\\":1}" → "{\\"n\\":-1}"');
    expect(diff.stdout).toContain('fake/half on numbers: 1 right → wrong, 0 wrong → right');
    const json = await runCli(['diff', a!, b!, '--format', 'json'], {
      cwd: dir,
      env: { TEMPORAL_ADDRESS: '' },
    });
    const change = JSON.parse(json.stdout) as {
      rows: { contender: string; paired?: { significant: boolean } }[];
    };
    const significant = change.rows.filter((r) => r.paired?.significant).map((r) => r.contender);
    expect(significant).toEqual([key('fake/mostly')]);
    console.log(`diff ${a} ${b}:\n${diff.stdout}`);
  }, 180_000);
});

describe('--repeat through the real CLI: pass^k and flaky cases', () => {
  it('lists moody’s flaky cases and pass^3 in the TUI, the HTML and the JSON', async () => {
    const dir = suite();
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `statistics-repeat-${Date.now()}`,
    };
    const run = await runCli(
      ['run', '-m', 'fake/moody', 'fake/oracle', '--repeat', '3', '--no-open', '-o', 'out/r.html'],
      {
        cwd: dir,
        env,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    const flaky = ['005', '010', '015', '020', '025', '030', '035', '040'].map((n) => `numbers/plain/${n}`);
    expect(run.stdout).toContain(
      `fake/moody: pass^3 80.0% (32 of 40 cases right every time); 8 flaky: ${flaky.join(', ')}`,
    );
    expect(run.stdout).toContain(
      'fake/oracle: pass^3 100.0% (40 of 40 cases right every time); no flaky case',
    );
    const [file] = readdirSync(join(dir, 'evals/results'));
    const snapshot = JSON.parse(readFileSync(join(dir, 'evals/results', file!), 'utf8')) as Snapshot;
    const moody = snapshot.contenders.find((c) => c.id === 'fake/moody' && c.repeat === 1)!;
    const moodyKey = moody.key.replace(/ #\d+$/, '');
    expect(snapshot.consistency).toEqual([
      expect.objectContaining({ contender: moodyKey, k: 3, cases: 40, passK: 0.8, flaky }),
      expect.objectContaining({ k: 3, passK: 1, flaky: [] }),
    ]);
    expect(snapshot.cases.filter((c) => c.flaky).map((c) => c.key)).toEqual(flaky);
    // Each case's own noise: a flaky case's repeats 1, 0, 1 (in some order) have sd √(1/3) = 0.577; the others
    // agree and carry none. On average over moody's 40 cases 8 × 0.57735 / 40 = 11.5 points, the oracle's 0.
    expect(snapshot.cases.filter((c) => c.spread).map((c) => [c.key, c.spread])).toEqual(
      flaky.map((key) => [key, { [moodyKey]: 0.577 }]),
    );
    expect(snapshot.consistency![0]!.spread).toBeCloseTo((8 * Math.sqrt(1 / 3)) / 40, 12);
    expect(run.stdout).toMatch(/8 flaky: [^\n]*; own noise ±11\.5\s+points/);
    expect(run.stdout).toMatch(/no flaky case; own noise ±0\.0 points/);
    // Cases are the unit: each case's repeats averaged, moody's 8 flaky cases at 2/3 against the oracle's 1.
    const versus = snapshot.comparisons!.find((c) => c.dataset === 'numbers')!;
    expect(versus).toMatchObject({ n: 40, test: 'paired-t' });
    expect(versus.meanDiff).toBeCloseTo(8 / 3 / 40, 12);
    const html = readFileSync(join(dir, 'out/r.html'), 'utf8');
    expect(html).toContain(
      `fake/moody: pass^3 80.0% (32 of 40 cases right every time); 8 flaky: ${flaky.join(', ')}; own noise ±11.5 points`,
    );
    console.log(run.stdout.slice(run.stdout.indexOf('Consistency over')));
  }, 180_000);
});

describe('numbers that read no better than they are, through the real CLI', () => {
  const env = () => ({
    TEMPORAL_ADDRESS: temporalAddress(),
    LLM_EVALS_TASK_QUEUE: `statistics-honest-${Date.now()}`,
  });

  it('a contender whose calls failed is not 100 %: ranked on the figure the paired tests use, marked worse, its errors one group', async () => {
    const dir = suite();
    const run = await runCli(['run', '-m', 'fake/oracle', 'fake/gappy', '--no-open', '-o', 'out/g.html'], {
      cwd: dir,
      env: { ...env(), COLUMNS: '200' },
    });
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout.split('\n').filter((l) => l.startsWith('│ numbers '));
    const gappy = rows.find((r) => r.includes('fake/gappy'))!;
    // 30 right of 40: its 10 failed calls count wrong, as in the paired test, and the row says it is worse.
    expect(gappy).toMatch(
      /fake\/gappy < #1 .*│\s+75\.0% │ worse −25\.0 \[−\d+\.\d, −\d+\.\d\] p = 0\.0020\s+│\s+10 │/,
    );
    expect(rows.find((r) => r.includes('fake/oracle'))).toMatch(/│\s+100\.0% │\s+│\s+0 │/);
    expect(run.stdout).toMatch(/worse than the best \(p < 0\.05\):\s+fake\/gappy −25\.0\s+points/);
    // 10 errors that differ only by their case: one group, one example.
    const grouped = run.stdout.split('\n').filter((l) => l.includes(' × '));
    expect(grouped).toEqual([
      '    fake/gappy: 10 × the adapter failed: this worker has no case ‹case› (e.g. numbers/plain/004)',
    ]);
    const html = readFileSync(join(dir, 'out/g.html'), 'utf8');
    expect(html).toMatch(
      /<td class="num worse" data-v="2" title="Worse than the best[^"]*">&lt; #1<small class="vs">−25\.0<\/small><small class="vs">p=0\.0020<\/small><\/td>/,
    );
    expect(html).toContain(
      '<td>the adapter failed: this worker has no case ‹case›</td><td>numbers/plain/004</td>',
    );
    const [file] = readdirSync(join(dir, 'evals/results'));
    const snapshot = JSON.parse(readFileSync(join(dir, 'evals/results', file!), 'utf8')) as Snapshot;
    expect(snapshot.failures).toEqual([
      expect.objectContaining({
        errors: 10,
        messages: [
          {
            message: 'the adapter failed: this worker has no case ‹case›',
            count: 10,
            example: 'numbers/plain/004',
          },
        ],
      }),
    ]);
    expect(snapshot.comparisons!.find((c) => c.dataset === 'numbers')).toMatchObject({
      n: 40,
      meanDiff: 0.25,
    });
  }, 180_000);

  it('diff of a --repeat run against a plain one pairs each contender, none added or gone', async () => {
    const dir = suite();
    const plain = await runCli(['run', '-m', 'fake/oracle', 'fake/half', '--no-open'], {
      cwd: dir,
      env: env(),
    });
    expect(plain.code, plain.stderr).toBe(0);
    const repeated = await runCli(['run', '-m', 'fake/oracle', 'fake/half', '--repeat', '3', '--no-open'], {
      cwd: dir,
      env: env(),
    });
    expect(repeated.code, repeated.stderr).toBe(0);
    const [a, b] = savedSnapshots(join(dir, 'evals/results'))
      .map((s) => s.file)
      .map((f) => join('evals/results', f));
    const diff = await runCli(['diff', a!, b!], { cwd: dir, env: { TEMPORAL_ADDRESS: '', COLUMNS: '200' } });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).not.toMatch(/#\d|added|gone/);
    const row = (id: string) => diff.stdout.split('\n').find((l) => l.includes(`│ ${id} `))!;
    expect(row('fake/oracle')).toMatch(/100\.0% → 100\.0%.*noise \(p = 1\.00, 40 cases\)/);
    expect(row('fake/half')).toMatch(/50\.0% → 50\.0%.*noise \(p = 1\.00, 40 cases\)/);
  }, 240_000);
});
