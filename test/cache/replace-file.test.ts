import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replaceFile } from '../../src/cache/replace-file.ts';

const made: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'llm-evals-replace-'));
  made.push(dir);
  return dir;
};
afterEach(() => made.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('replaceFile', () => {
  it('makes a folder that is missing, and leaves only the file', () => {
    const folder = join(scratch(), 'ab');
    replaceFile(join(folder, 'x.json'), join(folder, '.x.tmp'), 'one');
    expect(readFileSync(join(folder, 'x.json'), 'utf8')).toBe('one');
    expect(readdirSync(folder)).toEqual(['x.json']);
  });

  it('replaces an earlier file whole', () => {
    const dir = scratch();
    writeFileSync(join(dir, 'x.json'), 'an older and longer text');
    replaceFile(join(dir, 'x.json'), join(dir, '.x.tmp'), 'new');
    expect(readFileSync(join(dir, 'x.json'), 'utf8')).toBe('new');
  });

  it('removes its temporary file when the rename fails, and says why', () => {
    const dir = scratch();
    // A folder with something in it where the file should go: the rename over it fails.
    mkdirSync(join(dir, 'x.json'));
    writeFileSync(join(dir, 'x.json', 'inside'), '');
    expect(() => replaceFile(join(dir, 'x.json'), join(dir, '.x.tmp'), 'new')).toThrow(
      /EISDIR|ENOTEMPTY|EEXIST/,
    );
    expect(readdirSync(dir)).toEqual(['x.json']);
  });
});
