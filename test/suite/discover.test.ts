import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discover } from '../../src/suite/discover.ts';
import { TempDirs, writeTree } from '../helpers/suite-dir.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const CONFIG = '.llm-evals.config.yml';
const LINEUP = 'request_types: [prompt]\n';

/** A temp folder holding the given files, and a nested folder `a/b/c` to search from. */
function project(files: Record<string, string>): { root: string; nested: string } {
  const root = writeTree(dirs.os(), files);
  const nested = join(root, 'a/b/c');
  mkdirSync(nested, { recursive: true });
  return { root, nested };
}

describe('discover: upward', () => {
  it.each([
    ['evals/eval_helper.ts', { helperFile: 'evals/eval_helper.ts', configFile: undefined }],
    ['evals/eval_helper.mjs', { helperFile: 'evals/eval_helper.mjs', configFile: undefined }],
    [`evals/${CONFIG}`, { helperFile: undefined, configFile: `evals/${CONFIG}` }],
  ])('finds %s from a nested folder', (file, want) => {
    const { root, nested } = project({ [file]: LINEUP });
    const found = discover({ cwd: nested });
    expect(found).toEqual({
      helperFile: want.helperFile && join(root, want.helperFile),
      configFile: want.configFile && join(root, want.configFile),
      evalsDir: join(root, 'evals'),
      projectDir: root,
      file: join(root, file),
      how: 'upward',
    });
  });

  it('finds both files, names the helper in the box, and runs from the parent of evals/', () => {
    const { root, nested } = project({ 'evals/eval_helper.ts': '', [`evals/${CONFIG}`]: LINEUP });
    const found = discover({ cwd: nested });
    expect(found?.helperFile).toBe(join(root, 'evals/eval_helper.ts'));
    expect(found?.configFile).toBe(join(root, 'evals', CONFIG));
    expect(found?.file).toBe(found?.helperFile);
    expect(found?.projectDir).toBe(root);
  });

  it('prefers eval_helper.ts to the other helper names', () => {
    const { root, nested } = project({ 'evals/eval_helper.mjs': '', 'evals/eval_helper.ts': '' });
    expect(discover({ cwd: nested })?.helperFile).toBe(join(root, 'evals/eval_helper.ts'));
  });

  it('takes the nearest evals/ going up', () => {
    const { root } = project({ [`evals/${CONFIG}`]: LINEUP, [`a/evals/${CONFIG}`]: LINEUP });
    const found = discover({ cwd: join(root, 'a/b/c') });
    expect(found?.projectDir).toBe(join(root, 'a'));
  });

  it('searches upward before downward', () => {
    const { root } = project({ [`evals/${CONFIG}`]: LINEUP, [`a/${CONFIG}`]: LINEUP });
    expect(discover({ cwd: root })).toMatchObject({ how: 'upward', projectDir: root });
  });
});

describe('discover: downward', () => {
  it.each([
    ['a config one level down', `x/${CONFIG}`, 'x'],
    ['a config in an evals/ folder', `app/evals/${CONFIG}`, 'app/evals'],
    ['a config four levels down', `a/b/c/d/${CONFIG}`, 'a/b/c/d'],
  ])('finds %s', (_, file, folder) => {
    const root = writeTree(dirs.os(), { [file]: LINEUP });
    const found = discover({ cwd: root });
    expect(found).toMatchObject({ how: 'downward', configFile: join(root, file), file: join(root, file) });
    expect(found?.evalsDir).toBe(join(root, folder));
  });

  it.each([
    ['the parent of evals/', `app/evals/${CONFIG}`, 'app'],
    ['the config’s own folder outside evals/', `app/conf/${CONFIG}`, 'app/conf'],
  ])('runs from %s', (_, file, projectDir) => {
    const root = writeTree(dirs.os(), { [file]: LINEUP });
    expect(discover({ cwd: root })?.projectDir).toBe(join(root, projectDir));
  });

  it('picks up a helper beside the config it found', () => {
    const root = writeTree(dirs.os(), { [`app/evals/${CONFIG}`]: LINEUP, 'app/evals/eval_helper.ts': '' });
    expect(discover({ cwd: root })).toMatchObject({
      helperFile: join(root, 'app/evals/eval_helper.ts'),
      file: join(root, 'app/evals/eval_helper.ts'),
    });
  });

  it('does not look five levels down', () => {
    const root = writeTree(dirs.os(), { [`a/b/c/d/e/${CONFIG}`]: LINEUP });
    expect(discover({ cwd: root })).toBeUndefined();
  });

  it.each(['.hidden', '.git', 'node_modules', 'vendor', 'tmp', 'log', 'pkg', 'coverage', 'dist'])(
    'skips %s/ and everything under it',
    (skipped) => {
      const root = writeTree(dirs.os(), {
        [`${skipped}/${CONFIG}`]: LINEUP,
        [`${skipped}/deep/evals/${CONFIG}`]: LINEUP,
      });
      expect(discover({ cwd: root })).toBeUndefined();
    },
  );

  it('finds a config beside a skipped folder', () => {
    const root = writeTree(dirs.os(), { [`node_modules/x/${CONFIG}`]: LINEUP, [`z/y/${CONFIG}`]: LINEUP });
    expect(discover({ cwd: root })?.configFile).toBe(join(root, 'z/y', CONFIG));
  });

  it.each([
    ['the shallowest wins over an earlier name', [`z/${CONFIG}`, `a/b/${CONFIG}`], `z/${CONFIG}`],
    ['ties go by name', [`b/x/${CONFIG}`, `a/y/${CONFIG}`, `c/a/${CONFIG}`], `a/y/${CONFIG}`],
  ])('%s', (_, files, winner) => {
    const root = writeTree(dirs.os(), Object.fromEntries(files.map((f) => [f, LINEUP])));
    expect(discover({ cwd: root })?.configFile).toBe(join(root, winner));
  });
});

describe('discover: flags', () => {
  it('finds nothing with search: false', () => {
    const { root, nested } = project({ [`evals/${CONFIG}`]: LINEUP, [`a/${CONFIG}`]: LINEUP });
    expect(discover({ cwd: nested, search: false })).toBeUndefined();
    expect(discover({ cwd: root, search: false })).toBeUndefined();
  });

  it('takes --config (relative to cwd) without searching, even with search: false', () => {
    const { root } = project({ [`evals/${CONFIG}`]: LINEUP, [`other/evals/${CONFIG}`]: LINEUP });
    const found = discover({ cwd: root, config: `other/evals/${CONFIG}`, search: false });
    expect(found).toEqual({
      helperFile: undefined,
      configFile: join(root, 'other/evals', CONFIG),
      evalsDir: join(root, 'other/evals'),
      projectDir: join(root, 'other'),
      file: join(root, 'other/evals', CONFIG),
      how: 'flag',
    });
  });

  it('takes --helper and finds the config beside it', () => {
    const { root } = project({ 'x/evals/eval_helper.ts': '', [`x/evals/${CONFIG}`]: LINEUP });
    const found = discover({ cwd: join(root, 'a'), helper: '../x/evals/eval_helper.ts' });
    expect(found).toMatchObject({
      helperFile: join(root, 'x/evals/eval_helper.ts'),
      configFile: join(root, 'x/evals', CONFIG),
      projectDir: join(root, 'x'),
      file: join(root, 'x/evals/eval_helper.ts'),
      how: 'flag',
    });
  });
});
