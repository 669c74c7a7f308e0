import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, TempDirs, writeTree } from '../helpers/suite-dir.ts';

// bin/compile-cache.mjs: the CLI keeps V8's code for the CommonJS packages it loads. A process that loads a package
// from a project's node_modules, as the CLI loads Temporal's SDK, must get the package's current code every time.

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const HOOK = join(REPO, 'bin', 'compile-cache.mjs');

/** Runs a process that installs the cache, then requires `dep` from `project` and prints what it exports. */
function load(project: string, cache: string, extra: NodeJS.ProcessEnv = {}) {
  const script = `import { createRequire } from 'node:module';
const { installCompileCache } = await import(${JSON.stringify(HOOK)});
installCompileCache();
const dep = createRequire(${JSON.stringify(join(project, 'index.js'))})('dep');
console.log(dep.answer(), dep.where);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, XDG_CACHE_HOME: cache, ...extra },
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

const cacheFiles = (cache: string) => {
  const dir = join(cache, 'llm-evals', 'compile');
  return readdirSync(dir).map((name) => join(dir, name));
};

describe('the compile cache of the CLI (bin/compile-cache.mjs)', () => {
  const project = dirs.os();
  writeTree(project, {
    'node_modules/dep/package.json': '{ "name": "dep", "main": "main.js" }',
    'node_modules/dep/main.js':
      "const part = require('./part.js');\nexports.answer = () => part.value * 2;\nexports.where = __filename.endsWith('main.js') && require.resolve('./part.js') === __dirname + '/part.js';\n",
    'node_modules/dep/part.js': 'exports.value = 21;\n',
  });

  it('writes the cache once, then serves from it', () => {
    const cache = dirs.os();
    expect(load(project, cache)).toBe('42 true');
    const [file] = cacheFiles(cache);
    expect(file).toBeDefined();
    const written = statSync(file!).mtimeMs;
    expect(load(project, cache)).toBe('42 true');
    // Nothing was missing the second time: the file was not written again.
    expect(statSync(file!).mtimeMs).toBe(written);
  });

  it('a package file that changed runs its new code', () => {
    const cache = dirs.os();
    expect(load(project, cache)).toBe('42 true');
    writeTree(project, { 'node_modules/dep/part.js': 'exports.value = 50; // now another size\n' });
    expect(load(project, cache)).toBe('100 true');
    expect(load(project, cache)).toBe('100 true');
    writeTree(project, { 'node_modules/dep/part.js': 'exports.value = 21;\n' });
  });

  it('LLM_EVALS_COMPILE_CACHE=0 leaves it off: nothing is written', () => {
    const cache = dirs.os();
    expect(load(project, cache, { LLM_EVALS_COMPILE_CACHE: '0' })).toBe('42 true');
    expect(() => readdirSync(join(cache, 'llm-evals'))).toThrow();
  });
});
