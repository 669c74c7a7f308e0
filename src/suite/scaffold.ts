import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { CONFIG_NAME, HELPER_NAMES } from './discover.ts';

/** The template file that becomes the lineup: stored without its dot, so no search ever mistakes it for a suite. */
const TEMPLATE_CONFIG = 'llm-evals.config.yml';
const TEMPLATE_HELPER = 'eval_helper.ts';

/** One file `init` writes: the template it copies and where it lands, relative to the project. */
export interface ScaffoldFile {
  from: string;
  to: string;
}

/**
 * The helper's name for a project: `.ts` where package.json says `"type": "module"`, else `.mts`, which is ESM in a
 * CommonJS project too, so both the loader and the project's own TypeScript read its `import`s as written.
 */
export function helperNameFor(packageJson: unknown): 'eval_helper.ts' | 'eval_helper.mts' {
  const type = (packageJson as { type?: unknown } | undefined)?.type;
  return type === 'module' ? 'eval_helper.ts' : 'eval_helper.mts';
}

/** Every file of the template folder and where it lands under `evals/`. */
export function scaffoldFiles(templates: string, helperName: string): ScaffoldFile[] {
  const files = readdirSync(templates, { recursive: true, encoding: 'utf8' })
    .filter((path) => statSync(join(templates, path)).isFile())
    .sort();
  return files.map((from) => {
    const name = from === TEMPLATE_CONFIG ? CONFIG_NAME : from === TEMPLATE_HELPER ? helperName : from;
    return { from: join(templates, from), to: ['evals', ...name.split(sep)].join(sep) };
  });
}

/** The files whose presence means a suite is there already: any helper name the search knows, and the lineup. */
export function suiteMarkers(): string[] {
  return [...HELPER_NAMES, CONFIG_NAME].map((name) => join('evals', name));
}
