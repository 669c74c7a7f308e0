import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './suite-dir.ts';

/**
 * Packs this checkout as `npm pack` would for a release, into `out`; returns the tarball's path. Packed from a copy
 * of the sources: packing rebuilds dist/, which other test files' CLIs are running from.
 */
export function packCheckout(out: string): string {
  const copy = join(out, 'source');
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: REPO,
    encoding: 'utf8',
  });
  for (const file of listed.stdout.split('\0').filter((f) => f && existsSync(join(REPO, f)))) {
    cpSync(join(REPO, file), join(copy, file), { recursive: true });
  }
  symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const pack = spawnSync('npm', ['pack', '--silent', '--pack-destination', out], {
    cwd: copy,
    encoding: 'utf8',
  });
  if (pack.status !== 0) throw new Error(`npm pack exited ${pack.status}:\n${pack.stderr}`);
  return join(out, pack.stdout.trim().split('\n').at(-1)!);
}
