import { spawn } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, TempDirs } from '../helpers/suite-dir.ts';
import { packCheckout } from '../helpers/pack.ts';
import { freeServerPort } from '../helpers/temporal.ts';

// The package as a user gets it (#12): `npm pack`, a fresh `npm init -y` project (npm writes "type": "commonjs"),
// `npm install` of the tarball, `npx llm-evals init`, `npx llm-evals compare`, and the user's own `tsc --noEmit` on the
// helper; then a second project comparing while the first one's embedded server is up. Nothing here links to the
// checkout: what runs is what the tarball holds.

const dirs = new TempDirs();
let tarball: string;
let first: string;
let env: NodeJS.ProcessEnv;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end, with the test's environment; never rejects, so a test can show what it printed. */
function sh(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs = 300_000,
  extra: NodeJS.ProcessEnv = {},
): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A new project as `npm init -y` makes it, with the tarball installed. */
async function newProject(prefix: string): Promise<string> {
  const dir = dirs.os(prefix);
  const init = await sh('npm', ['init', '-y'], dir);
  expect(init.code, init.stderr).toBe(0);
  const install = await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], dir);
  expect(install.code, install.stderr).toBe(0);
  return dir;
}

beforeAll(async () => {
  const out = dirs.os('llm-evals-pack-');
  env = {
    ...process.env,
    TEMPORAL_ADDRESS: '',
    LLM_EVALS_STATE_DIR: join(out, 'state'),
    LLM_EVALS_TEMPORAL_PORT: String(await freeServerPort()),
    NO_COLOR: '1',
  };
  tarball = packCheckout(out);
  first = await newProject('llm-evals-user-');
}, 600_000);

afterAll(async () => {
  if (first) await sh('npx', ['llm-evals', 'server', 'stop', '--force'], first, 60_000);
  dirs.removeAll();
});

describe('the installed package', () => {
  it("holds what a user needs and nothing of the repository's own", async () => {
    const list = await sh('tar', ['-tzf', tarball], REPO);
    const files = list.stdout.split('\n').filter(Boolean);
    for (const needed of [
      'dist/cli.js',
      'dist/workflow-bundle.js',
      // The view's browser script, bundled by `npm pack` (an installed package has no src/ to bundle it from).
      'dist/view.js',
      // The failure converter every worker and client requires by path (failures encoded, so the codec encrypts them).
      'dist/failure-converter.cjs',
      'dist/types/src/index.d.ts',
      'bin/llm-evals.mjs',
    ])
      expect(files).toContain(`package/${needed}`);
    expect(files).toContain('package/templates/init/eval_helper.ts');
    expect(files).toContain('package/CHANGELOG.md');
    for (const dir of ['test/', 'bench/', 'dev/', 'workflows/', 'src/', 'activities/']) {
      expect(files.filter((f) => f.startsWith(`package/${dir}`))).toEqual([]);
    }
    // Of the examples, only the systemd units the README points at ship.
    const examples = files.filter((f) => f.startsWith('package/examples/'));
    expect(examples.length).toBeGreaterThan(0);
    expect(examples.filter((f) => !f.startsWith('package/examples/systemd/'))).toEqual([]);
  });

  it('takes CommonJS packages, and the CommonJS build of dual ones, with require: no start lexes or compiles them anew', async () => {
    const dir = dirs.os('llm-evals-unpacked-');
    expect((await sh('tar', ['-xzf', tarball, '-C', dir], REPO)).code).toBe(0);
    const dist = join(dir, 'package', 'dist');
    const built = readdirSync(dist).filter((f) => f.endsWith('.js') && f !== 'workflow-bundle.js');
    const sources = built.map((f) => readFileSync(join(dist, f), 'utf8'));
    const imported = sources.flatMap((s) => [
      ...s.matchAll(/\bfrom\s*"(@temporalio\/[^"]+|yaml|picocolors|zod|tinyglobby)"/g),
    ]);
    expect(imported.map((m) => m[1])).toEqual([]);
    expect(sources.some((s) => s.includes('__require("@temporalio/worker")'))).toBe(true);
    expect(sources.some((s) => s.includes('__require("zod")'))).toBe(true);
  });

  it('init, then compare, in a fresh CommonJS project: exit 0, a leaderboard, a snapshot', async () => {
    const init = await sh('npx', ['llm-evals', 'init'], first);
    expect(init.code, init.stderr).toBe(0);
    const compare = await sh('npx', ['llm-evals', 'compare', '--no-open'], first);
    expect(compare.code, compare.stderr).toBe(0);
    expect(compare.stdout).toMatch(/best (and best value )?fake\/careful, 100\.0% score/);
    const results = join(first, 'evals', 'results');
    expect(readdirSync(results).filter((f) => f.endsWith('.json'))).toHaveLength(1);
  }, 300_000);

  it("type-checks the helper with the user's own tsc and a standard NodeNext tsconfig", async () => {
    const tools = await sh(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '-D', 'typescript@~5.9', '@types/node@^22'],
      first,
    );
    expect(tools.code, tools.stderr).toBe(0);
    writeFileSync(
      join(first, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          types: ['node'],
        },
        include: ['evals/**/*'],
      }),
    );
    const tsc = await sh('npx', ['tsc', '--noEmit', '-p', '.'], first);
    expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  }, 300_000);

  it("a second project compares while the first one's server is up, on the same server", async () => {
    const second = dirs.os('llm-evals-user2-');
    writeFileSync(
      join(second, 'package.json'),
      JSON.stringify({ name: 'two', version: '1.0.0', type: 'module' }),
    );
    symlinkSync(join(first, 'node_modules'), join(second, 'node_modules'), 'dir');
    expect((await sh('npx', ['llm-evals', 'init'], second)).code).toBe(0);
    const both = await Promise.all(
      [first, second].map((dir) => sh('npx', ['llm-evals', 'compare', '--no-open'], dir)),
    );
    for (const run of both) expect(run.code, run.stderr).toBe(0);
    const listed = await sh('npx', ['llm-evals', 'runs', '--all'], second);
    expect(listed.code, listed.stderr).toBe(0);
    const ids = both.map((run) => /run (\S+) started/.exec(run.stderr)?.[1]);
    for (const id of ids) expect(listed.stdout).toContain(id);
  }, 300_000);
});

/**
 * The same package on the other Nodes users run: CI runs the tests on Node 24 and names Node 22's bin folder here
 * (LLM_EVALS_TEST_NODE_BINS, folders joined by ':'); a fresh project installs the tarball and compares on it.
 */
const otherNodes = (process.env.LLM_EVALS_TEST_NODE_BINS ?? '').split(':').filter(Boolean);
describe.each(otherNodes)('the installed package on the Node in %s', (bin) => {
  it('init, then compare: exit 0 and a leaderboard', async () => {
    const path = { PATH: `${bin}:${process.env.PATH ?? ''}` };
    const dir = dirs.os('llm-evals-node-');
    expect((await sh('node', ['--version'], dir, 60_000, path)).stdout).toBe(
      (await sh(join(bin, 'node'), ['--version'], dir, 60_000)).stdout,
    );
    expect((await sh('npm', ['init', '-y'], dir, 60_000, path)).code).toBe(0);
    const install = await sh(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball],
      dir,
      300_000,
      path,
    );
    expect(install.code, install.stderr).toBe(0);
    expect((await sh('npx', ['llm-evals', 'init'], dir, 300_000, path)).code).toBe(0);
    const compare = await sh('npx', ['llm-evals', 'compare', '--no-open'], dir, 300_000, path);
    expect(compare.code, compare.stderr).toBe(0);
    expect(compare.stdout).toMatch(/best (and best value )?fake\/careful, 100\.0% score/);
  }, 600_000);
});

/** A helper in each module format: ESM for TypeScript, .mjs and .js in a module package, CommonJS for .js elsewhere. */
const ESM_HELPER = `import { defineSuite, EchoAdapter, FakeProvider, FieldScorer } from 'llm-evals';
export default defineSuite({
  adapter: new EchoAdapter(),
  scorer: new FieldScorer(),
  providers: [new FakeProvider({ name: 'fake', models: { careful: 'echo', hasty: 'echo' } })],
});
`;
const CJS_HELPER = `const { defineSuite, EchoAdapter, FakeProvider, FieldScorer } = require('llm-evals');
module.exports = defineSuite({
  adapter: new EchoAdapter(),
  scorer: new FieldScorer(),
  providers: [new FakeProvider({ name: 'fake', models: { careful: 'echo', hasty: 'echo' } })],
});
`;

describe.concurrent('a helper loads in any project', () => {
  const types = [['commonjs'], ['module'], [undefined]] as const;
  const cases = types.flatMap(([type]) =>
    (['ts', 'mts', 'js', 'mjs'] as const).map((ext) => [type ?? 'no type', ext, type] as const),
  );
  it.for(cases)('"type": %s, eval_helper.%s', async ([, ext, type], { expect }) => {
    const dir = dirs.os('llm-evals-helper-');
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'p', version: '1.0.0', ...(type ? { type } : {}) }),
    );
    symlinkSync(join(first, 'node_modules'), join(dir, 'node_modules'), 'dir');
    cpSync(join(first, 'evals', 'datasets'), join(dir, 'evals', 'datasets'), { recursive: true });
    cpSync(join(first, 'evals', '.llm-evals.config.yml'), join(dir, 'evals', '.llm-evals.config.yml'));
    const commonJs = ext === 'js' && type !== 'module';
    writeFileSync(join(dir, 'evals', `eval_helper.${ext}`), commonJs ? CJS_HELPER : ESM_HELPER);
    const verify = await sh('npx', ['llm-evals', 'verify'], dir, 60_000);
    expect(verify.stderr).not.toMatch(/failed to load|Cannot require|cycle/);
    expect(verify.stdout + verify.stderr).toMatch(/2 cases in 1 dataset/);
  });
});
