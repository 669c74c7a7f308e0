import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EchoAdapter } from '../../src/api/testing.ts';
import { ConfigError } from '../../src/errors.ts';
import { discover, type Discovery } from '../../src/suite/discover.ts';
import { loadEnvFiles, loadSuite } from '../../src/suite/load.ts';
import { TempDirs, TOY_SUITE, writeTree } from '../helpers/suite-dir.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const LINEUP = 'request_types: [prompt]\nfake: { models: [echo] }\n';
const TOY_MODULE = join(TOY_SUITE, 'lib/toy-suite.ts');

/** A module with an adapter and a scorer that need nothing from `llm-evals`, and a provider. */
const PLAIN_MODULE = `
export class PlainAdapter {
  call() { return Promise.resolve({ output: {} }); }
  context() { return {}; }
}
export class PlainScorer {
  metrics() { return [{ name: 'score', description: 'all of it', primary: true }]; }
  call() { return { value: 1, metrics: { score: 1 } }; }
}
export class Broken { constructor() { throw new Error('cannot build'); } }
export const notAClass = 42;
`;

/** Discovers the suite written under a fresh project folder, searching from its root. */
function project(files: Record<string, string>, where: 'os' | 'repo' = 'os'): Discovery {
  const root = writeTree(where === 'os' ? dirs.os() : dirs.inRepo('load-'), files);
  const found = discover({ cwd: root });
  if (!found) throw new Error(`no suite in ${root}`);
  return found;
}

async function loadError(discovery: Discovery): Promise<ConfigError> {
  try {
    await loadSuite(discovery);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadSuite: a config-only suite', () => {
  it('imports the module, creates the named adapter and scorer, and registers its providers', async () => {
    const found = project({
      'evals/.llm-evals.config.yml': `project: plain\nimport: ${TOY_MODULE}\nadapter: ToyAdapter\nscorer: ToyScorer\n${LINEUP}`,
    });
    const suite = await loadSuite(found);
    expect(suite.name).toBe('plain');
    expect(suite.adapter.constructor.name).toBe('ToyAdapter');
    expect(suite.scorer.constructor.name).toBe('ToyScorer');
    expect(suite.registry.names()).toEqual(['openrouter', 'typesafe', 'fake']);
    expect(suite.root).toBe(found.evalsDir);
    expect(suite.projectDir).toBe(found.projectDir);
    expect(suite.config.providers.fake).toEqual({ models: [{ model: 'echo' }] });
  });

  it('resolves a relative import from the project, the parent of evals/', async () => {
    const found = project({
      'lib/plain.mjs': PLAIN_MODULE,
      'evals/.llm-evals.config.yml': `import: ./lib/plain.mjs\nadapter: PlainAdapter\nscorer: PlainScorer\nrequest_types: [prompt]\n`,
    });
    const suite = await loadSuite(found);
    expect(suite.scorer.metrics().map((m) => m.name)).toEqual(['score']);
    expect(suite.name).toBe(found.projectDir.split('/').pop());
  });

  it('resolves a package name from the project', async () => {
    const found = project(
      {
        'evals/.llm-evals.config.yml': `import: [llm-evals, ${TOY_MODULE}]\nadapter: EchoAdapter\nscorer: ToyScorer\n${LINEUP}`,
      },
      'repo',
    );
    expect((await loadSuite(found)).adapter.constructor.name).toBe('EchoAdapter');
  });

  it.each([
    [
      'an import that fails',
      'import: ./lib/missing.mjs\nadapter: PlainAdapter\nscorer: PlainScorer\n',
      'import',
      /^"\.\/lib\/missing\.mjs" could not be imported: /,
    ],
    [
      'an unknown adapter export',
      'import: ./lib/plain.mjs\nadapter: NoSuchAdapter\nscorer: PlainScorer\n',
      'adapter',
      /^"NoSuchAdapter" is not exported by \.\/lib\/plain\.mjs$/,
    ],
    [
      'an unknown scorer export',
      'import: ./lib/plain.mjs\nadapter: PlainAdapter\nscorer: NoSuchScorer\n',
      'scorer',
      /^"NoSuchScorer" is not exported by \.\/lib\/plain\.mjs$/,
    ],
    [
      'an adapter named without an import',
      'adapter: PlainAdapter\nscorer: PlainScorer\n',
      'adapter',
      /not exported by nothing \(no `import:` key\)/,
    ],
    [
      'an export that is not a class',
      'import: ./lib/plain.mjs\nadapter: notAClass\nscorer: PlainScorer\n',
      'adapter',
      /"notAClass" is not a class/,
    ],
    [
      'a class that throws when created',
      'import: ./lib/plain.mjs\nadapter: PlainAdapter\nscorer: Broken\n',
      'scorer',
      /"Broken" could not be created: cannot build/,
    ],
    ['no adapter at all', 'import: ./lib/plain.mjs\nscorer: PlainScorer\n', 'adapter', /^required/],
    ['no scorer at all', 'import: ./lib/plain.mjs\nadapter: PlainAdapter\n', 'scorer', /^required/],
    [
      'a scorer without metrics()',
      'import: ./lib/plain.mjs\nadapter: PlainAdapter\nscorer: PlainAdapter\n',
      'scorer',
      /no metrics\(\) method/,
    ],
  ])('names the key and value of %s', async (_, keys, key, problem) => {
    const found = project({
      'lib/plain.mjs': PLAIN_MODULE,
      'evals/.llm-evals.config.yml': `${keys}request_types: [prompt]\n`,
    });
    const error = await loadError(found);
    expect(error.file).toBe(found.configFile);
    expect(error.key).toBe(key);
    expect(error.problem).toMatch(problem);
  });
});

describe('loadSuite: a helper file', () => {
  it('loads a TypeScript helper without a build step and takes its settings', async () => {
    const found = project(
      {
        'evals/eval_helper.ts': `
import { defineSuite, EchoAdapter, FakeProvider } from 'llm-evals';
import { ToyScorer } from '${TOY_MODULE}';
const hook = (): void => {};
export default defineSuite({
  name: 'helper-suite',
  description: 'from a helper',
  envFiles: ['../.env'],
  cases: 'cases/**/input.txt',
  adapter: new EchoAdapter(),
  scorer: new ToyScorer(),
  beforeRun: hook,
  providers: [new FakeProvider({ name: 'mine', models: { echo: 'echo' } })],
});
`,
        'evals/.llm-evals.config.yml':
          'project: ignored\nrequest_types: [prompt]\nmine: { models: [echo] }\n',
      },
      'repo',
    );
    const suite = await loadSuite(found);
    expect(suite).toMatchObject({
      name: 'helper-suite',
      description: 'from a helper',
      envFiles: ['../.env'],
      casesGlob: 'cases/**/input.txt',
      root: found.evalsDir,
    });
    // The helper's `llm-evals` is the built package (dist/), not this test's sources: the same class by another copy.
    expect(suite.adapter.constructor.name).toBe(EchoAdapter.name);
    expect(suite.beforeRun).toBeTypeOf('function');
    expect(suite.registry.names()).toEqual(['openrouter', 'typesafe', 'mine']);
  });

  it('loads the helper first and lets the config fill what it left unset', async () => {
    const found = project({
      'lib/plain.mjs': PLAIN_MODULE,
      'evals/eval_helper.mjs': `
import { PlainAdapter } from '../lib/plain.mjs';
export default { adapter: new PlainAdapter() };
`,
      'evals/.llm-evals.config.yml':
        'import: ./lib/plain.mjs\nadapter: NoSuchAdapter\nscorer: PlainScorer\nrequest_types: [prompt]\n',
    });
    const suite = await loadSuite(found);
    expect(suite.adapter.constructor.name).toBe('PlainAdapter');
    expect(suite.scorer.constructor.name).toBe('PlainScorer');
    expect(suite.casesGlob).toBe('datasets/*/cases/**/input.txt');
  });

  it.each([
    [
      'a helper that throws',
      `throw new Error('helper exploded');\n`,
      undefined,
      /the helper failed to load: helper exploded/,
    ],
    ['a helper with a syntax error', `export default {{;\n`, undefined, /the helper failed to load/],
    ['a helper without a default export', `export const suite = {};\n`, 'export default', /defineSuite/],
  ])('names the file of %s', async (_, helper, key, problem) => {
    const found = project({ 'evals/eval_helper.mjs': helper, 'evals/.llm-evals.config.yml': LINEUP });
    const error = await loadError(found);
    expect(error.file).toBe(found.helperFile);
    expect(error.key).toBe(key);
    expect(error.problem).toMatch(problem);
    expect(error.exitCode).toBe(2);
  });

  it('asks for the lineup file when the helper has none beside it', async () => {
    const found = project({ 'evals/eval_helper.mjs': 'export default {};\n' });
    const error = await loadError(found);
    expect(error.file).toBe(join(found.evalsDir, '.llm-evals.config.yml'));
    expect(error.key).toBe('request_types');
  });

  it('checks the lineup against the providers the helper registers', async () => {
    const found = project({
      'evals/eval_helper.mjs': 'export default {};\n',
      'evals/.llm-evals.config.yml': LINEUP,
    });
    const error = await loadError(found);
    expect(error.key).toBe('fake');
    expect(error.problem).toMatch(/unknown key or provider/);
  });
});

describe('loadEnvFiles', () => {
  it('loads env files without overriding what is set, and skips missing ones', () => {
    const root = writeTree(dirs.os(), { '.env': 'A=from-file\nB=from-file\n', 'more.env': 'C=3\n' });
    const env: NodeJS.ProcessEnv = { A: 'exported' };
    loadEnvFiles(root, ['.env', 'missing.env', 'more.env'], env);
    expect(env).toEqual({ A: 'exported', B: 'from-file', C: '3' });
  });
});
