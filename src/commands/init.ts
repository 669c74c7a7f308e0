import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import pc from 'picocolors';
import { ConfigError } from '../errors.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { helperNameFor, scaffoldFiles, suiteMarkers } from '../suite/scaffold.ts';
import type { Io } from '../cli/io.ts';

/** The template suite `init` copies: a helper, a lineup, one dataset with two cases and its schema. */
const TEMPLATES = join(PACKAGE_ROOT, 'templates', 'init');

/** The project `init` writes into: the nearest folder up from here with a package.json, else the working directory. */
function projectFrom(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

function readPackageJson(projectDir: string): unknown {
  const file = join(projectDir, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(file, undefined, `is not valid JSON (${(error as Error).message})`);
  }
}

/** Whether the helper's `import 'llm-evals'` will resolve from the project. */
function installedIn(projectDir: string): boolean {
  try {
    createRequire(join(projectDir, 'package.json')).resolve('llm-evals');
    return true;
  } catch {
    return false;
  }
}

/**
 * `init`: writes a working suite into `evals/` of the current project (stand-in models, one dataset scored by
 * FieldScorer, commented OpenRouter and local sections), so `init` then `compare` runs with no edits. It writes
 * nothing when any of its files, or another suite's helper or lineup, is already there.
 */
export function initCommand(io: Io): Promise<number> {
  const projectDir = projectFrom(io.cwd);
  const helperName = helperNameFor(readPackageJson(projectDir));
  const files = scaffoldFiles(TEMPLATES, helperName);
  const taken = [...new Set([...suiteMarkers(), ...files.map((f) => f.to)])].filter((to) =>
    existsSync(join(projectDir, to)),
  );
  if (taken.length > 0) {
    const others = taken.length > 1 ? `, as do ${taken.length - 1} more of the files init writes` : '';
    throw new ConfigError(
      join(projectDir, taken[0]!),
      undefined,
      `already exists${others}; init overwrites nothing: edit the suite that is there, or move it away first`,
    );
  }
  for (const { from, to } of files) {
    mkdirSync(dirname(join(projectDir, to)), { recursive: true });
    copyFileSync(from, join(projectDir, to));
  }
  const lines = [
    pc.green(`wrote a suite into ${join(projectDir, 'evals')}:`),
    ...files.map((f) => `  ${f.to}`),
    '',
    `next: ${pc.bold('npx llm-evals compare')}  (two stand-in models on two cases; no key needed)`,
    `then: put your cases in evals/datasets/, your prompt in evals/${helperName}, real models in the lineup`,
  ];
  if (!installedIn(projectDir)) {
    lines.push(
      pc.yellow(`llm-evals is not installed in this project yet: ${pc.bold('npm install -D llm-evals')}`),
    );
  }
  io.stdout.write(lines.join('\n') + '\n');
  return Promise.resolve(0);
}
