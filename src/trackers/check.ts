import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError } from '../errors.ts';
import type { Env, TrackerDefinition } from './types.ts';

/** Imports a package from llm-evals' own place, else from the suite's project (where a custom tracker's live). */
async function importable(name: string, projectDir: string): Promise<boolean> {
  try {
    await import(name);
    return true;
  } catch {
    try {
      await import(pathToFileURL(createRequire(join(projectDir, 'package.json')).resolve(name)).href);
      return true;
    } catch {
      return false;
    }
  }
}

/** The variable a tracker lacks: its own rule when it has one, else its `envKey` unset. */
export function missingKey(tracker: TrackerDefinition, env: Env): string | undefined {
  if (tracker.missingKey) return tracker.missingKey(env);
  return tracker.envKey && !env[tracker.envKey]?.trim() ? tracker.envKey : undefined;
}

/**
 * Fails before any model is called when the chosen tracker cannot work: one `ConfigError` naming every package
 * that does not import and the key that is not set.
 */
export async function checkTracker(tracker: TrackerDefinition, env: Env, projectDir: string): Promise<void> {
  const missing: string[] = [];
  for (const name of tracker.packages) {
    if (!(await importable(name, projectDir))) missing.push(name);
  }
  const key = missingKey(tracker, env);
  const needs = [
    missing.length
      ? `the package${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (npm install ${missing.join(' ')})`
      : undefined,
    key ? `${key} in the environment` : undefined,
  ].filter(Boolean);
  if (needs.length) {
    throw new ConfigError(undefined, undefined, `the ${tracker.name} tracker needs ${needs.join(' and ')}`);
  }
}
