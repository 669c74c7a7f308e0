import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { findTemporalBinary } from '../temporal/binary.ts';
import { ensureServer, stopServer } from '../temporal/server.ts';
import { keepHistories, keptHistoriesDir } from './helpers/keep-histories.ts';
import { freeServerPort } from './helpers/temporal.ts';
import { ensureBuilt } from '../dev/build.mjs';
import { warmCache } from './helpers/fault-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    temporalBinary: string;
  }
}

/** Start one Temporal dev server for the whole test run; its address and binary reach tests through `inject`. */
export async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // The unit tests need neither the build nor the server: a run of them alone (npm run test:unit) starts neither.
  if (project.vitest.projects.every((p) => p.name === 'unit')) return undefined;
  const log = (line: string): void => {
    process.stderr.write(`[temporal] ${line}\n`);
  };
  // The CLIs the tests spawn run dist/: build it once here, before they start by the dozen.
  await ensureBuilt();
  // And the workflow bundle once, in the folder whose bundle the tests' cache folders share (providers/cli-suite.ts).
  await warmCache();
  const binary = await findTemporalBinary({ log });
  const root = await mkdtemp(join(tmpdir(), 'llm-evals-test-temporal-'));
  const stateDir = join(root, 'shared');
  // Test processes (and the CLIs they spawn) inherit this: a test that names no state dir of its own gets a
  // throwaway one, never the developer's per-user server. Kept apart from the shared server's folder.
  const userState = join(root, 'user');
  process.env.LLM_EVALS_STATE_DIR = userState;
  // Nor the developer's reply cache: the CLIs a test starts each get a folder of their own under it (helpers/cli.ts).
  process.env.LLM_EVALS_CACHE_DIR = join(root, 'replies');
  // A port found free can be taken by another process before the server binds it (tests start many): try again.
  const start = async (tries: number): Promise<Awaited<ReturnType<typeof ensureServer>>> => {
    try {
      return await ensureServer({
        stateDir,
        binary,
        port: await freeServerPort(),
        extraArgs: [
          '--dynamic-config-value',
          'limit.historyCount.suggestContinueAsNew=200',
          // Tests name suite queues by the dozen, each a Worker Deployment: the server's own settings allow them.
        ],
        log,
      });
    } catch (error) {
      if (tries <= 1) throw error;
      log(`the server did not start (${(error as Error).message.split('\n')[0]}); trying another port`);
      return start(tries - 1);
    }
  };
  const server = await start(3);
  project.provide('temporalAddress', server.address);
  project.provide('temporalBinary', binary);
  return async () => {
    const keep = keptHistoriesDir();
    if (keep) await keepHistories(server.address, keep, `shared-${process.pid}`);
    await Promise.all([stopServer(stateDir), stopServer(userState)]);
    await rm(root, { recursive: true, force: true });
  };
}
