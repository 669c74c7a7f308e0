import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (
      existsSync(file) &&
      (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'llm-evals'
    ) {
      return dir;
    }
    if (dirname(dir) === dir) throw new Error(`no llm-evals package.json above ${from}`);
  }
}

/** The folder of llm-evals' own package.json, found from this file whether it runs as TypeScript or from dist/. */
export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** llm-evals' own version, from its package.json. */
export const VERSION = (
  JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
