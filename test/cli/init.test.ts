import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runCliLong } from '../helpers/cli.ts';
import { editFile, REPO, TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';
import { tableRows } from '../providers/cli-suite.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const FILES = [
  'evals/.llm-evals.config.yml',
  'evals/datasets/tickets/cases/clear/expected.json',
  'evals/datasets/tickets/cases/clear/input.txt',
  'evals/datasets/tickets/cases/clear/metadata.json',
  'evals/datasets/tickets/cases/vague/expected.json',
  'evals/datasets/tickets/cases/vague/input.txt',
  'evals/datasets/tickets/cases/vague/metadata.json',
  'evals/datasets/tickets/schema.json',
];

/**
 * A fresh project with its own package.json and llm-evals "installed" (node_modules/llm-evals linked to this
 * checkout, as npm links a dependency), so the helper's `import 'llm-evals'` resolves as in a user's project.
 */
function project(packageJson: Record<string, unknown>): string {
  const dir = dirs.inRepo('init-');
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'shop', version: '1.0.0', ...packageJson }),
  );
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(REPO, join(dir, 'node_modules', 'llm-evals'), 'dir');
  return dir;
}

/** Every file under `evals/` with its content and modification time, to prove nothing was written. */
function evalsTree(dir: string): Record<string, string> {
  const root = join(dir, 'evals');
  if (!existsSync(root)) return {};
  return Object.fromEntries(
    readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((path) => statSync(join(root, path)).isFile())
      .map((path) => [
        path,
        `${statSync(join(root, path)).mtimeMs} ${readFileSync(join(root, path), 'utf8')}`,
      ]),
  );
}

const env = () => ({
  TEMPORAL_ADDRESS: temporalAddress(),
  LLM_EVALS_TASK_QUEUE: `init-${process.pid}-${Date.now()}`,
});

describe('init through the real CLI', () => {
  it.each<[string, Record<string, unknown>, string, boolean]>([
    ['a CommonJS project', { type: 'commonjs' }, 'evals/eval_helper.mts', true],
    ['a project with no type (CommonJS)', {}, 'evals/eval_helper.mts', false],
    ['an ESM project', { type: 'module' }, 'evals/eval_helper.ts', false],
  ])(
    '%s: init, then cases, verify and compare -n work with no edits',
    async (_, packageJson, helper, fullCompare) => {
      const dir = project(packageJson);
      const init = await runCli(['init'], { cwd: dir });
      expect(init.code, init.stderr).toBe(0);
      for (const file of [...FILES, helper]) {
        expect(existsSync(join(dir, file)), file).toBe(true);
        expect(init.stdout).toContain(`  ${file}\n`);
      }
      expect(init.stdout).toContain('next: npx llm-evals compare');
      expect(init.stdout).not.toContain('not installed');

      const cases = await runCli(['cases'], { cwd: dir });
      expect(cases.code, cases.stderr).toBe(0);
      expect(cases.stdout).toContain('2 cases in 1 dataset');
      expect(cases.stderr).toContain(`File: ${helper}`);

      const verify = await runCli(['verify'], { cwd: dir });
      expect(verify.code, verify.stdout + verify.stderr).toBe(0);
      expect(verify.stdout).toContain('no problems');

      const dry = await runCli(['compare', '-n'], { cwd: dir });
      expect(dry.code, dry.stderr).toBe(0);
      expect(tableRows(dry.stdout, 'tickets').map((r) => r.model)).toEqual(['fake/careful', 'fake/hasty']);

      if (!fullCompare) return;
      const run = await runCliLong(['compare', '--no-open'], { cwd: dir, env: env(), timeoutMs: 90_000 });
      expect(run.code, run.stderr).toBe(0);
      const scores = Object.fromEntries(
        tableRows(run.stdout, 'tickets').map((r) => [r.model ?? '', r.score ?? ''] as const),
      );
      // The stand-ins differ for real: hasty leaves one of five answers out of each case (missed: 0.2).
      expect(scores).toEqual({ 'fake/careful': '100.0%', 'fake/hasty': '84.0%' });
      // Two cases cannot tell the two apart (a sign test over 2 gives p = 0.5): hasty is tied with the best.
      expect(run.stdout).toContain('best fake/careful, 100.0% score');
      expect(run.stdout).toContain('tied with fake/hasty (p = 0.50, 2 cases)');
      // A new user's first run: the tokens the stand-ins were billed come near compare -n's estimate.
      const used = /([\d,]+) vs ([\d,]+) \S+ tokens out/.exec(run.stderr);
      expect(used, run.stderr).not.toBeNull();
      const [out, estimated] = [used![1]!, used![2]!].map((n) => Number(n.replace(/,/g, '')));
      expect(Math.abs(out! / estimated! - 1), run.stderr).toBeLessThanOrEqual(0.25);
      expect(readdirSync(join(dir, 'evals/results')).some((f) => f.endsWith('.html'))).toBe(true);
    },
    120_000,
  );

  it.each<[string, string[]]>([
    ['a second init', []],
    ['a suite of another kind (a JavaScript helper)', ['evals/eval_helper.js']],
    ['one of the files init writes', ['evals/datasets/tickets/schema.json']],
  ])('refuses %s: exit 2 naming the file, writing nothing', async (what, existing) => {
    const dir = project({ type: 'module' });
    if (existing.length === 0) expect((await runCli(['init'], { cwd: dir })).code).toBe(0);
    for (const file of existing) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), '{}\n');
    }
    const before = evalsTree(dir);
    const again = await runCli(['init'], { cwd: dir });
    expect(again.code, what).toBe(2);
    const named = existing[0] ?? 'evals/eval_helper.ts';
    expect(again.stderr).toContain(`llm-evals: ${join(dir, named)}: already exists`);
    expect(again.stderr).toContain('init overwrites nothing');
    expect(again.stdout).toBe('');
    expect(evalsTree(dir)).toEqual(before);
  });

  it('writes into the nearest folder with a package.json, and says when llm-evals is not installed', async () => {
    const dir = dirs.inRepo('init-bare-');
    writeFileSync(join(dir, 'package.json'), '{"name": "bare"}');
    mkdirSync(join(dir, 'src/deep'), { recursive: true });
    const init = await runCli(['init'], { cwd: join(dir, 'src/deep') });
    expect(init.code, init.stderr).toBe(0);
    expect(existsSync(join(dir, 'evals/eval_helper.mts'))).toBe(true);
    expect(init.stdout).toContain('llm-evals is not installed in this project yet: npm install -D llm-evals');
  });

  it('has OpenRouter and Ollama sections that work once uncommented', async () => {
    const dir = project({ type: 'module' });
    expect((await runCli(['init'], { cwd: dir })).code).toBe(0);
    const lineup = join(dir, 'evals/.llm-evals.config.yml');
    // Uncomment the two sections: each starts at `# <name>:` and runs to the next blank line.
    editFile(lineup, (text) =>
      text.replace(/^# (openrouter|ollama):\n(?:#.*\n)*/gm, (block) => block.replace(/^# ?/gm, '')),
    );
    const text = readFileSync(lineup, 'utf8');
    expect(text).toMatch(/^openrouter:$/m);
    expect(text).toMatch(/^ollama:\n {2}base_url: http:\/\/127\.0\.0\.1:11434\/v1$/m);
    const cases = await runCli(['cases'], { cwd: dir });
    expect(cases.code, cases.stderr).toBe(0);
    // The local section is a provider of its own: ids under its name, planned without a key. No server listens
    // there, and the dry run says so with the run's own check and exit code, below the matrix it still prints.
    const dry = await runCli(['run', '-n', '-m', 'ollama/llama3.2'], { cwd: dir });
    expect(dry.code, dry.stderr).toBe(2);
    expect(dry.stderr).toContain('ollama: http://127.0.0.1:11434/v1 is not reachable');
    expect(tableRows(dry.stdout, 'tickets').map((r) => [r.provider, r.model])).toEqual([
      ['ollama', 'ollama/llama3.2'],
    ]);
  });
});
