import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.ts';

/** The browser script's source in a checkout; an installed package has only the bundle `npm pack` made of it. */
const SOURCE = join(PACKAGE_ROOT, 'src', 'view', 'browser', 'view.ts');
const BUNDLED = join(PACKAGE_ROOT, 'dist', 'view.js');

/** Bundles the view's browser script with esbuild: one minified file for the browsers the view supports. */
export async function bundleViewScript(entry = SOURCE): Promise<string> {
  const { build } = await import('esbuild');
  const built = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['chrome110', 'firefox110', 'safari16'],
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  return built.outputFiles[0]!.text;
}

let script: Promise<string> | undefined;

/**
 * The view's browser script, made once per process: bundled from its source in a checkout (so it is never stale),
 * else read from the package's dist/view.js.
 */
export function viewScript(): Promise<string> {
  script ??= existsSync(SOURCE) ? bundleViewScript() : Promise.resolve(readFileSync(BUNDLED, 'utf8'));
  // A failure is not kept: the next request tries again.
  script.catch(() => (script = undefined));
  return script;
}
