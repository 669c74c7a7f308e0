import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { editFile, TempDirs } from '../helpers/suite-dir.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const CONFIG = 'evals/.llm-evals.config.yml';
const HELPER = 'evals/eval_helper.ts';
const STACK = /^\s+at /m;

/** Changes one thing in a fresh copy of the toy suite; returns the copy. */
type Breakage = (copy: string) => void;

const inConfig =
  (edit: (text: string) => string): Breakage =>
  (copy) =>
    editFile(join(copy, CONFIG), edit);

/** Replaces the helper with a config-only suite whose code keys are `keys`. */
const configOnly =
  (keys: string): Breakage =>
  (copy) => {
    rmSync(join(copy, HELPER));
    editFile(join(copy, CONFIG), (text) => `${keys}\n${text}`);
  };

const BROKEN: [string, Breakage, string, string, string][] = [
  // [what, how, file named, key named, text the message must also hold]
  [
    'malformed YAML',
    inConfig((t) => t.replace('request_types: [prompt]', 'request_types: [prompt')),
    CONFIG,
    'line ',
    'malformed YAML',
  ],
  ['an unknown top-level key', inConfig((t) => `${t}\ncolour: red\n`), CONFIG, 'colour', '"red"'],
  [
    'an unknown key in a provider section',
    inConfig((t) => t.replace('fake:', 'fake:\n  speed: 3')),
    CONFIG,
    'fake.speed',
    'got 3',
  ],
  [
    'an unknown key in a model entry',
    inConfig((t) => t.replace('    - parrot', '    - { model: parrot, colour: red }')),
    CONFIG,
    'fake.models[1].colour',
    '"red"',
  ],
  [
    'the old top-level vendors:',
    inConfig((t) => `${t}\nvendors:\n  openai: [gpt-4.1-mini]\n`),
    CONFIG,
    'vendors',
    'upgrade-config',
  ],
  [
    'the old top-level direct:',
    inConfig((t) => `${t}\ndirect:\n  typesafe: [jev-latest]\n`),
    CONFIG,
    'direct',
    'upgrade-config',
  ],
  [
    'missing request_types',
    inConfig((t) => t.replace(/^request_types:.*$/m, '')),
    CONFIG,
    'request_types',
    'required',
  ],
  [
    'a rate_limit with one number',
    inConfig((t) => t.replace('fake:', 'fake:\n  rate_limit: { burst: 5 }')),
    CONFIG,
    'fake.rate_limit',
    '{"burst":5}',
  ],
  [
    'a model rate_limit on two entries',
    inConfig((t) =>
      t.replace(
        '    - parrot',
        '    - { model: parrot, rate_limit: { burst: 1, per_minute: 6 } }\n    - { model: parrot, effort: low, rate_limit: { burst: 1, per_minute: 6 } }',
      ),
    ),
    CONFIG,
    'fake.models[2].rate_limit',
    'fake.models[1]',
  ],
  [
    'a helper that throws',
    (copy) => writeFileSync(join(copy, HELPER), "throw new Error('helper exploded');\n"),
    HELPER,
    '',
    'helper exploded',
  ],
  [
    'an import that fails',
    configOnly('import: ./lib/missing.ts\nadapter: ToyAdapter\nscorer: ToyScorer'),
    CONFIG,
    'import',
    '"./lib/missing.ts"',
  ],
  [
    'an unknown adapter export',
    configOnly('import: ./lib/toy-suite.ts\nadapter: ToyAdaptor\nscorer: ToyScorer'),
    CONFIG,
    'adapter',
    '"ToyAdaptor"',
  ],
  [
    'a broken expected.json',
    (copy) => writeFileSync(join(copy, 'evals/datasets/colors/cases/clear/002/expected.json'), '{ nope'),
    'evals/datasets/colors/cases/clear/002/expected.json',
    '',
    'not valid JSON',
  ],
];

describe.concurrent('bad input through the real CLI', () => {
  it.each(BROKEN)(
    '%s: exit 2, one message naming the file and key, no stack',
    async (_, breakIt, file, key, text) => {
      const copy = dirs.toySuite();
      breakIt(copy);
      const result = await runCli(['compare', '-n'], { cwd: copy });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^┌ Info/);
      const said = result.stderr.split('\n').filter((l) => l && !/^[┌│└]/.test(l));
      expect(said).toHaveLength(1);
      const [message = ''] = said;
      expect(message.startsWith('llm-evals: ')).toBe(true);
      // Files inside the suite may be named relative to it; the lineup and helper are named in full.
      expect(message.includes(join(copy, file)) || message.includes(` ${file}:`)).toBe(true);
      expect(message).toContain(key ? `: ${key}` : '');
      expect(message).toContain(text);
      expect(result.stderr).not.toMatch(STACK);
    },
  );

  it('shows the stack with -v', async () => {
    const copy = dirs.toySuite();
    editFile(join(copy, CONFIG), (t) => `${t}\ncolour: red\n`);
    const result = await runCli(['cases', '-v'], { cwd: copy });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`llm-evals: ${join(copy, CONFIG)}: colour: `);
    expect(result.stderr).toMatch(STACK);
  });

  it.each([
    ['-p x', ['compare', '-n', '-p', 'x'], '-p takes a whole number'],
    ['an unknown command', ['frobnicate'], "unknown command 'frobnicate'"],
    ['run without -m', ['run', '-n'], "required option '-m, --models <ids...>' not specified"],
  ])('exits 2 on a bad flag: %s', async (_, args, message) => {
    const result = await runCli(args, { cwd: dirs.os() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(STACK);
  });
});
