import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { CONFIG_ONLY_SUITE, REPO, TempDirs, TOY_SUITE } from '../helpers/suite-dir.ts';
import { ChatServer } from '../providers/chat-server.ts';
import { temporalAddress } from '../helpers/temporal.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const REFUSAL = 'typesafe/jev-latest refused: needs typesafe; this suite produces prompt';

/** The stderr lines after the info box: what a command said beyond naming its suite. */
const afterBox = (stderr: string): string[] => {
  const lines = stderr.split('\n');
  const end = lines.findIndex((l) => l.startsWith('└'));
  return lines.slice(end + 1).filter(Boolean);
};

/** The rows of a box table whose first cell is one of the datasets. */
const rows = (stdout: string): string[] =>
  stdout.split('\n').filter((l) => /^│ *\d* *│? *(animals|capitals|colors|weather) /.test(l));

/** Asserts the info box comes first on stderr and names the suite and its file. */
function expectInfoBox(result: CliResult, suite: string, file: string): void {
  const [top, name, shown, bottom] = result.stderr.split('\n');
  expect(top).toMatch(/^┌ Info ─+┐$/);
  expect(name).toMatch(new RegExp(`^│ Evals configuration: ${suite} +│$`));
  expect(shown).toMatch(new RegExp(`^│ File: ${file.replaceAll('.', '\\.')} +│$`));
  expect(bottom).toMatch(/^└─+┘$/);
}

/** The datasets of each example: the toy's four (the judged capitals, the agent's weather), the config-only's two. */
const TOY_DATASETS = ['animals', 'capitals', 'colors', 'weather'];
const CONFIG_ONLY_DATASETS = ['animals', 'colors'];
const TOY_CASES = 14;
const CONFIG_ONLY_CASES = 8;
/** Model calls a contender makes over the suite: a case each, and a step more per tool call the weather cases expect (1 + 2 + 2). */
const TOY_CALLS = TOY_CASES + 5;

const PLACES = [
  // The toy suite's helper names it toy: the box says the suite's name, not its folder's.
  ['examples/toy-suite', TOY_SUITE, 'toy', 'evals/eval_helper.ts', TOY_DATASETS, TOY_CASES, TOY_CALLS],
  [
    'examples/config-only-suite',
    CONFIG_ONLY_SUITE,
    'config-only-suite',
    'evals/.llm-evals.config.yml',
    CONFIG_ONLY_DATASETS,
    CONFIG_ONLY_CASES,
    CONFIG_ONLY_CASES,
  ],
  // The downward search: both examples sit three levels down; ties go by name.
  [
    'the repository root',
    REPO,
    'config-only-suite',
    'examples/config-only-suite/evals/.llm-evals.config.yml',
    CONFIG_ONLY_DATASETS,
    CONFIG_ONLY_CASES,
    CONFIG_ONLY_CASES,
  ],
] as const;

describe.concurrent.each(PLACES)('from %s', (_, cwd, suite, file, datasets, cases, calls) => {
  it('cases lists every case and the refusal', async () => {
    const result = await runCli(['cases'], { cwd });
    expect(result.code).toBe(0);
    expectInfoBox(result, suite, file);
    expect(rows(result.stdout)).toHaveLength(cases);
    expect(result.stdout).toMatch(/│ animals +│ clear\/001 +│ easy +│ 3\/3 answered +│ +13 │/);
    expect(result.stdout).toMatch(/│ colors +│ tricky\/002 │ hard +│ 0\/2 answered +│ +8 │/);
    expect(result.stdout).toContain(`${cases} cases in ${datasets.length} datasets\n`);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(REFUSAL);
    expect(afterBox(result.stderr)).toEqual([]);
  });

  it('verify exits 0', async () => {
    const result = await runCli(['verify'], { cwd });
    expect(result.code).toBe(0);
    expectInfoBox(result, suite, file);
    expect(result.stdout).toBe(`✓ verify: ${cases} cases in ${datasets.length} datasets, no problems\n`);
  });

  it('compare -n shows 3 experiments a dataset and warns about the refusal', async () => {
    const result = await runCli(['compare', '-n'], { cwd });
    expect(result.code).toBe(0);
    expectInfoBox(result, suite, file);
    const experiments = rows(result.stdout);
    expect(experiments).toHaveLength(3 * datasets.length);
    expect(
      experiments.map((r) =>
        r
          .split('│')
          .slice(2, 6)
          .map((c) => c.trim()),
      ),
    ).toEqual(
      datasets.flatMap((d) => [
        [d, 'fake', 'fake/echo', 'default'],
        [d, 'fake', 'fake/echo', 'low'],
        [d, 'fake', 'fake/parrot', 'default'],
      ]),
    );
    expect(result.stdout).toContain(
      `${3 * datasets.length} experiments (3 contenders × ${datasets.length} datasets), ${cases} cases, ` +
        `${3 * calls} calls`,
    );
    expect(result.stdout).toMatch(/estimated: [\d,]+ tokens in, [\d,]+ tokens out, \$\d+\.\d{4}\n/);
    expect(result.stdout).not.toContain('jev-latest');
    expect(afterBox(result.stderr)).toEqual([`warning: ${REFUSAL}`]);
  });
});

describe.concurrent('the CLI', () => {
  it('searches upward from a folder inside the suite, naming a file outside it in full', async () => {
    const result = await runCli(['cases'], { cwd: join(TOY_SUITE, 'evals/datasets/animals') });
    expect(result.code).toBe(0);
    expectInfoBox(result, 'toy', join(TOY_SUITE, 'evals/eval_helper.ts'));
    expect(rows(result.stdout)).toHaveLength(TOY_CASES);
  });

  it('selects with -d and -c', async () => {
    const result = await runCli(['cases', '-d', 'colors', '-c', 'clear,tricky/002'], { cwd: TOY_SUITE });
    expect(result.code).toBe(0);
    expect(rows(result.stdout).map((r) => r.split('│')[2]?.trim())).toEqual([
      'clear/001',
      'clear/002',
      'tricky/002',
    ]);
    expect(result.stdout).toContain('3 cases in 1 dataset');
  });

  it('plans the selection and the flags in compare -n', async () => {
    const result = await runCli(
      ['compare', '-n', '-d', 'animals', '-c', 'clear/001', '-e', 'high', '-t', '0,0.5'],
      {
        cwd: TOY_SUITE,
      },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('4 experiments (4 contenders × 1 dataset), 1 case, 4 calls');
    expect(
      rows(result.stdout).map((r) =>
        r
          .split('│')
          .slice(4, 7)
          .map((c) => c.trim()),
      ),
    ).toEqual([
      ['fake/echo', 'high', '0'],
      ['fake/echo', 'high', '0.5'],
      ['fake/parrot', 'high', '0'],
      ['fake/parrot', 'high', '0.5'],
    ]);
  });

  it('start -n plans like compare -n, and starts no run and no worker', async () => {
    const project = dirs.toySuite();
    // A reachable Temporal: a start that ignored -n would start the run there and spawn its worker.
    const env = { TEMPORAL_ADDRESS: temporalAddress(), LLM_EVALS_TASK_QUEUE: `start-dry-${process.pid}` };
    const [start, compare] = await Promise.all([
      runCli(['start', '-n'], { cwd: project, env }),
      runCli(['compare', '-n'], { cwd: project, env }),
    ]);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toBe(compare.stdout);
    expect(start.stderr).not.toContain('worker');
    expect(readdirSync(project)).not.toContain('log');
    expect(readdirSync(join(project, 'evals'))).not.toContain('results');
  });

  it('runs -m with a model outside the lineup through the registry', async () => {
    // A local stand-in that lists no model keeps the dry run's checks off the network (and out of the user's cache).
    const openrouter = new ChatServer([]);
    const result = await runCli(['run', '-n', '-m', 'fake/parrot', 'openai/gpt-4.1-mini'], {
      cwd: TOY_SUITE,
      env: {
        OPENROUTER_BASE_URL: await openrouter.start(),
        OPENROUTER_API_KEY: 'unused',
        XDG_CACHE_HOME: dirs.os(),
      },
    });
    await openrouter.stop();
    expect(result.code, result.stderr).toBe(0);
    expect(
      rows(result.stdout).map((r) =>
        r
          .split('│')
          .slice(3, 5)
          .map((c) => c.trim()),
      ),
    ).toEqual(
      TOY_DATASETS.flatMap(() => [
        ['fake', 'fake/parrot'],
        ['openrouter', 'openai/gpt-4.1-mini'],
      ]),
    );
  });

  it('refuses -c that selects no case with exit 2', async () => {
    const result = await runCli(['cases', '-c', 'vague'], { cwd: TOY_SUITE });
    expect(result.code).toBe(2);
    expect(afterBox(result.stderr)).toEqual([
      `llm-evals: -c vague: selects no case (the suite has ${TOY_CASES})`,
    ]);
  });

  it('lists the request types prompt and typesafe in --help', async () => {
    const result = await runCli(['--help'], { cwd: REPO });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: llm-evals /);
    const types = result.stdout.slice(result.stdout.indexOf('Request types'));
    expect(types).toMatch(/^ {2}prompt +\S.*\(openrouter\)$/m);
    expect(types).toMatch(/^ {2}typesafe +\S.*\(typesafe\)$/m);
  });

  it.each([['version'], ['-V']])('%s prints llm-evals <version>', async (flag) => {
    const result = await runCli([flag], { cwd: REPO });
    expect(result).toEqual({ code: 0, stdout: `llm-evals ${VERSION}\n`, stderr: '' });
  });

  it('shows a yellow warning box first, and exits 2, when no suite is found', async () => {
    const result = await runCli(['cases'], { cwd: dirs.os() });
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(/^┌ Warning ─+┐$/);
    expect(afterBox(result.stderr)).toEqual([
      'llm-evals: no suite found; pass -C FILE or --helper FILE, or run from inside a project',
    ]);
    expect(result.stdout).toBe('');
  });

  it('turns the search off with --no-search', async () => {
    const result = await runCli(['cases', '--no-search'], { cwd: TOY_SUITE });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^┌ Warning/);
  });

  it('takes -C from anywhere, and the project is the parent of evals/', async () => {
    const config = join(CONFIG_ONLY_SUITE, 'evals/.llm-evals.config.yml');
    const result = await runCli(['verify', '-C', config], { cwd: dirs.os() });
    expect(result.code).toBe(0);
    expectInfoBox(result, 'config-only-suite', config);
  });

  it('takes LLM_EVALS_HELPER from anywhere', async () => {
    const helper = join(TOY_SUITE, 'evals/eval_helper.ts');
    const result = await runCli(['cases'], { cwd: dirs.os(), env: { LLM_EVALS_HELPER: helper } });
    expect(result.code).toBe(0);
    expectInfoBox(result, 'toy', helper);
    expect(rows(result.stdout)).toHaveLength(TOY_CASES);
  });

  it('says with -v where the suite was found', async () => {
    const result = await runCli(['verify', '-v'], { cwd: REPO });
    expect(result.code).toBe(0);
    expect(afterBox(result.stderr)).toEqual([
      `suite config-only-suite found downward: ${join(CONFIG_ONLY_SUITE, 'evals/.llm-evals.config.yml')}`,
    ]);
  });
});

describe.concurrent('verify on a copy of the toy suite', () => {
  it('resolves `llm-evals` from the copy by the package’s self-reference, and passes', async () => {
    const copy = dirs.toySuite();
    expect(createRequire(join(copy, 'package.json')).resolve('llm-evals')).toBe(join(REPO, 'dist/index.js'));
    const result = await runCli(['verify'], { cwd: copy });
    expect(result.code).toBe(0);
  });

  it.each([
    ['an unparsable expected.json', 'clear/001/expected.json', '{ "animal": ', /not valid JSON/],
    [
      'an expected answer the scorer rejects',
      'clear/002/expected.json',
      '{}',
      /expected\.json has no fields/,
    ],
  ])('fails on %s and names the file', async (_, file, content, problem) => {
    const copy = dirs.toySuite();
    writeFileSync(join(copy, 'evals/datasets/animals/cases', file), content);
    const result = await runCli(['verify'], { cwd: copy });
    expect(result.code).not.toBe(0);
    const shown = `evals/datasets/animals/cases/${file}`;
    const [line, summary] = result.stdout.split('\n');
    expect(line?.startsWith(`✗ ${shown}: `)).toBe(true);
    expect(line).toMatch(problem);
    expect(summary).toMatch(/^verify: 1 problem \(1[34] cases in 4 datasets\)$/);
  });

  it('fails when expected.json is missing', async () => {
    const copy = dirs.toySuite();
    rmSync(join(copy, 'evals/datasets/colors/cases/clear/001/expected.json'));
    const result = await runCli(['verify'], { cwd: copy });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('✗ evals/datasets/colors/cases/clear/001/expected.json: missing');
  });
});

describe('the info box', () => {
  it('names the suite by its own name (intake-extraction), not its folder (extraction-suite)', async () => {
    const cwd = join(REPO, 'examples/extraction-suite');
    const result = await runCli(['cases'], { cwd });
    expect(result.code).toBe(0);
    expectInfoBox(result, 'intake-extraction', 'evals/eval_helper.ts');
  });
});
