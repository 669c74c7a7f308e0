import { ConfigError } from '../errors.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { loadEnvFiles } from '../suite/load.ts';
import type { Io } from '../cli/io.ts';
import type { PlannedRun } from './plan-run.ts';

/** Prepares a process that will call the suite's code: its env files, then its beforeRun hook. */
export async function prepareSuite(suite: LoadedSuite, io: Io): Promise<void> {
  loadEnvFiles(suite.root, suite.envFiles, io.env);
  await suite.beforeRun?.();
}

/** Fails before any call when a provider the plan uses lacks its key, naming the variable (P5). */
export function checkKeys({ suite, plan }: PlannedRun, env: NodeJS.ProcessEnv): void {
  for (const name of new Set(plan.contenders.map((c) => c.provider))) {
    for (const key of suite.registry.get(name)?.envKeys ?? []) {
      if (!env[key])
        throw new ConfigError(
          undefined,
          key,
          `not set, and provider ${name} needs it (export it, or put it in an env file)`,
        );
    }
  }
}
