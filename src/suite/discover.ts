import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

/** Helper file names searched for inside `evals/`, in order. */
export const HELPER_NAMES = ['eval_helper.ts', 'eval_helper.mts', 'eval_helper.js', 'eval_helper.mjs'];
/** The lineup's file name. */
export const CONFIG_NAME = '.llm-evals.config.yml';

const SKIPPED = new Set(['node_modules', 'vendor', 'tmp', 'log', 'pkg', 'coverage', 'dist']);
const MAX_DEPTH = 4;

/** Where a suite was found: its helper and/or config, the evals folder and the project it runs from. */
export interface Discovery {
  helperFile?: string;
  configFile?: string;
  /** The folder holding the helper or config (usually `evals/`). */
  evalsDir: string;
  /** The parent of `evals/`, or the config's own folder: where relative paths land. */
  projectDir: string;
  /** The file named in the info box. */
  file: string;
  how: 'upward' | 'downward' | 'flag';
}

/** How to look for a suite: the folder, and the lineup or helper file asked for. */
export interface DiscoverOptions {
  cwd: string;
  config?: string;
  helper?: string;
  search?: boolean;
}

function inEvalsDir(
  evalsDir: string,
  how: Discovery['how'],
  found: { helperFile?: string; configFile?: string },
) {
  const projectDir = basename(evalsDir) === 'evals' ? dirname(evalsDir) : evalsDir;
  const file = (found.helperFile ?? found.configFile)!;
  return { ...found, evalsDir, projectDir, file, how };
}

function suiteFiles(evalsDir: string): { helperFile?: string; configFile?: string } {
  const helper = HELPER_NAMES.map((name) => join(evalsDir, name)).find((path) => existsSync(path));
  const config = join(evalsDir, CONFIG_NAME);
  return { helperFile: helper, configFile: existsSync(config) ? config : undefined };
}

function searchUpward(cwd: string): Discovery | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const found = suiteFiles(join(dir, 'evals'));
    if (found.helperFile || found.configFile) return inEvalsDir(join(dir, 'evals'), 'upward', found);
    if (dirname(dir) === dir) return undefined;
  }
}

function searchDownward(cwd: string): Discovery | undefined {
  let level = [resolve(cwd)];
  for (let depth = 1; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    const hits: string[] = [];
    for (const dir of level) {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        if (!entry.isDirectory() || entry.name.startsWith('.') || SKIPPED.has(entry.name)) continue;
        const child = join(dir, entry.name);
        if (existsSync(join(child, CONFIG_NAME))) hits.push(child);
        next.push(child);
      }
    }
    if (hits.length > 0) {
      const evalsDir = hits.sort((a, b) => relative(cwd, a).localeCompare(relative(cwd, b)))[0]!;
      return inEvalsDir(evalsDir, 'downward', suiteFiles(evalsDir));
    }
    level = next;
  }
  return undefined;
}

/** Finds the suite as the README says: the file asked for, else upward for `evals/`, else downward for a config; undefined if none. */
export function discover(options: DiscoverOptions): Discovery | undefined {
  const helper = options.helper;
  if (helper || options.config) {
    const helperFile = helper ? resolve(options.cwd, helper) : undefined;
    const configFile = options.config ? resolve(options.cwd, options.config) : undefined;
    const evalsDir = dirname((helperFile ?? configFile)!);
    const sibling = suiteFiles(evalsDir);
    return inEvalsDir(evalsDir, 'flag', {
      helperFile: helperFile ?? sibling.helperFile,
      configFile: configFile ?? sibling.configFile,
    });
  }
  if (options.search === false) return undefined;
  return searchUpward(options.cwd) ?? searchDownward(options.cwd);
}
