import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, TempDirs, writeTree } from '../helpers/suite-dir.ts';

// bin/compile-cache.mjs: the CLI keeps V8's code for the CommonJS packages it loads. A process that loads a package
// from a project's node_modules, as the CLI loads Temporal's SDK, must get the package's current code every time.

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const HOOK = join(REPO, 'bin', 'compile-cache.mjs');

/**
 * Runs a process that installs the cache (bin/compile-cache.mjs of the installation `hook` belongs to), then requires
 * `dep` (and the packages `also` names) from `project` and prints what `dep` exports.
 */
function load(
  project: string,
  cache: string,
  extra: NodeJS.ProcessEnv = {},
  { hook = HOOK, also = [] as string[] } = {},
) {
  const script = `import { createRequire } from 'node:module';
const { installCompileCache } = await import(process.env.HOOK);
installCompileCache();
const require = createRequire(${JSON.stringify(join(project, 'index.js'))});
for (const name of JSON.parse(process.env.ALSO)) require(name);
const dep = require('dep');
console.log(dep.answer(), dep.where);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    // What varies goes by env: the script is part of the process's flags, which name its cache file.
    env: { ...process.env, XDG_CACHE_HOME: cache, HOOK: hook, ALSO: JSON.stringify(also), ...extra },
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

const cacheFiles = (cache: string) => {
  const dir = join(cache, 'llm-evals', 'compile');
  return readdirSync(dir).map((name) => join(dir, name));
};

/** The files a cache file holds code of (its index: a 4-byte length, then JSON; the resolutions under a NUL key). */
function cachedNames(file: string): string[] {
  const data = readFileSync(file);
  const index = JSON.parse(data.subarray(4, 4 + data.readUInt32LE(0)).toString('utf8')) as object;
  return Object.keys(index)
    .filter((name) => !name.startsWith('\0'))
    .sort();
}

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

  it('each installation has a file of its own, holding only the packages its commands loaded', () => {
    const cache = dirs.os();
    const installs = [dirs.os(), dirs.os()].map((root) => {
      mkdirSync(join(root, 'bin'));
      copyFileSync(HOOK, join(root, 'bin', 'compile-cache.mjs'));
      return join(root, 'bin', 'compile-cache.mjs');
    });
    for (const hook of installs) expect(load(project, cache, {}, { hook })).toBe('42 true');
    const files = cacheFiles(cache);
    expect(files).toHaveLength(2);
    const dep = join(project, 'node_modules', 'dep');
    for (const file of files) expect(cachedNames(file)).toEqual([join(dep, 'main.js'), join(dep, 'part.js')]);
  });

  it('a package removed or changed leaves the cache at its next write; one still there stays', () => {
    const cache = dirs.os();
    const other = dirs.os();
    writeTree(other, {
      'node_modules/dep/package.json': '{ "name": "dep", "main": "main.js" }',
      'node_modules/dep/main.js': "exports.answer = () => 1;\nexports.where = 'here';\n",
      'node_modules/gone/package.json': '{ "name": "gone", "main": "index.js" }',
      'node_modules/gone/index.js': 'exports.x = 1;\n',
      'node_modules/kept/package.json': '{ "name": "kept", "main": "index.js" }',
      'node_modules/kept/index.js': 'exports.y = 2;\n',
    });
    expect(load(other, cache, {}, { also: ['gone', 'kept'] })).toBe('1 here');
    const [file] = cacheFiles(cache);
    const at = (name: string) => join(other, 'node_modules', name, name === 'dep' ? 'main.js' : 'index.js');
    expect(cachedNames(file!)).toEqual([at('dep'), at('gone'), at('kept')]);
    rmSync(join(other, 'node_modules', 'gone'), { recursive: true });
    // A command that loads only dep, changed since: the cache is written again, without the package that is gone.
    writeTree(other, { 'node_modules/dep/main.js': "exports.answer = () => 2;\nexports.where = 'there';\n" });
    expect(load(other, cache)).toBe('2 there');
    expect(cachedNames(file!)).toEqual([at('dep'), at('kept')]);
  });

  it("resolves a package's requires as they were found while npm's lock file is unchanged, afresh once it changed", () => {
    const cache = dirs.os();
    const project = dirs.os();
    writeTree(project, {
      'node_modules/.package-lock.json': '{ "lockfileVersion": 3 }',
      'node_modules/dep/package.json': '{ "name": "dep", "main": "main.js" }',
      'node_modules/dep/main.js':
        "const inner = require('inner');\nexports.answer = () => inner.value;\nexports.where = require.resolve('inner');\n",
      'node_modules/inner/package.json': '{ "name": "inner", "main": "index.js" }',
      'node_modules/inner/index.js': 'exports.value = 1;\n',
    });
    // The installation the CLI would be: llm-evals in the project's node_modules.
    const hook = join(project, 'node_modules', 'llm-evals', 'bin', 'compile-cache.mjs');
    mkdirSync(dirname(hook), { recursive: true });
    copyFileSync(HOOK, hook);
    const top = join(project, 'node_modules', 'inner', 'index.js');
    const nested = join(project, 'node_modules', 'dep', 'node_modules', 'inner', 'index.js');
    expect(load(project, cache, {}, { hook })).toBe(`1 ${top}`);
    // A copy nearer to dep, put there without npm: the resolution made before stands (the cache answered).
    writeTree(project, {
      'node_modules/dep/node_modules/inner/package.json': '{ "name": "inner", "main": "index.js" }',
      'node_modules/dep/node_modules/inner/index.js': 'exports.value = 2;\n',
    });
    expect(load(project, cache, {}, { hook })).toBe(`1 ${top}`);
    // npm installs it: its lock file changes, and every require is resolved again.
    writeTree(project, { 'node_modules/.package-lock.json': '{ "lockfileVersion": 3, "changed": true }' });
    expect(load(project, cache, {}, { hook })).toBe(`2 ${nested}`);
    expect(load(project, cache, {}, { hook })).toBe(`2 ${nested}`);
    // A file the cache resolved to that is gone is resolved again.
    rmSync(join(project, 'node_modules', 'dep', 'node_modules'), { recursive: true });
    expect(load(project, cache, {}, { hook })).toBe(`1 ${top}`);
  });

  it('LLM_EVALS_COMPILE_CACHE=0 leaves it off: nothing is written', () => {
    const cache = dirs.os();
    expect(load(project, cache, { LLM_EVALS_COMPILE_CACHE: '0' })).toBe('42 true');
    expect(() => readdirSync(join(cache, 'llm-evals'))).toThrow();
  });
});
