import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO, TempDirs, writeTree } from '../helpers/suite-dir.ts';

// bin/compile-cache.mjs: the CLI keeps V8's code for the packages it loads with Node's own compile cache. A process
// that loads a package from a project's node_modules, as the CLI loads Temporal's SDK, must get its current code.

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const HOOK = join(REPO, 'bin', 'compile-cache.mjs');

/** Runs a process that installs the cache, requires `dep` from `project` and prints what it answers. */
function load(project: string, cache: string, extra: NodeJS.ProcessEnv = {}) {
  const script = `import { createRequire, getCompileCacheDir } from 'node:module';
const { installCompileCache } = await import(process.env.HOOK);
installCompileCache();
const dep = createRequire(${JSON.stringify(join(project, 'index.js'))})('dep');
console.log(dep.answer(), getCompileCacheDir() ?? 'off');`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, XDG_CACHE_HOME: cache, HOOK, ...extra },
    encoding: 'utf8',
  });
  expect(run.stderr).toBe('');
  return run.stdout.trim();
}

/** Every file under `dir`, with its size and mtime. */
function files(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.set(path, `${statSync(path).size} ${statSync(path).mtimeMs}`);
    }
  };
  if (existsSync(dir)) walk(dir);
  return found;
}

describe('the compile cache of the CLI (bin/compile-cache.mjs)', () => {
  const project = dirs.os();
  writeTree(project, {
    'node_modules/dep/package.json': '{ "name": "dep", "main": "main.js" }',
    'node_modules/dep/main.js':
      "const part = require('./part.js');\nexports.answer = () => part.value * 2;\n",
    'node_modules/dep/part.js': 'exports.value = 21;\n',
  });

  it('writes the code under the cache root once, then serves from it', () => {
    const cache = dirs.os();
    const dir = join(cache, 'llm-evals', 'compile');
    // Node keeps a folder per version and flags inside it.
    expect(load(project, cache)).toMatch(new RegExp(`^42 ${dir}/v`));
    const first = files(dir);
    expect(first.size).toBeGreaterThan(0);
    expect(load(project, cache)).toMatch(/^42 /);
    // Nothing was missing the second time: no file was written again.
    expect(files(dir)).toEqual(first);
  });

  it('a package file that changed runs its new code', () => {
    const cache = dirs.os();
    expect(load(project, cache)).toMatch(/^42 /);
    writeTree(project, { 'node_modules/dep/part.js': 'exports.value = 50; // now another size\n' });
    expect(load(project, cache)).toMatch(/^100 /);
    writeTree(project, { 'node_modules/dep/part.js': 'exports.value = 21;\n' });
  });

  it('LLM_EVALS_COMPILE_CACHE=0 turns it off', () => {
    const cache = dirs.os();
    expect(load(project, cache, { LLM_EVALS_COMPILE_CACHE: '0' })).toBe('42 off');
    expect(existsSync(join(cache, 'llm-evals', 'compile'))).toBe(false);
  });
});
