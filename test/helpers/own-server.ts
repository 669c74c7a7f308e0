import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { afterAll } from 'vitest';
import type { ServerInfo } from '../../temporal/server.ts';
import { temporalBinary } from './temporal.ts';

// For the tests of the embedded server itself, which start dev servers of their own rather than use the shared one:
// state folders removed after the file, a process recorded as a folder's server, and a wait for visibility to see a
// start.

/** A maker of fresh state folders, each removed once the file's tests have ended. */
export function serverDirs(): () => Promise<string> {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), 'llm-evals-server-'));
    dirs.push(dir);
    return dir;
  };
}

/**
 * Records process `pid` in `dir`'s server.json as its server on `port` (the UI at port + 1000, the db in `dir`), as
 * the llm-evals `startedBy` names (none: one from before that was recorded) would have.
 */
export async function recordServer(
  dir: string,
  pid: number,
  port: number,
  startedBy?: string,
): Promise<ServerInfo> {
  const info: ServerInfo = {
    pid,
    address: `127.0.0.1:${port}`,
    uiUrl: `http://127.0.0.1:${port + 1000}`,
    port,
    uiPort: port + 1000,
    dbFile: join(dir, 'temporal.db'),
    logFile: join(dir, 'server.log'),
    binary: temporalBinary(),
    startedAt: new Date().toISOString(),
    ...(startedBy ? { startedBy } : {}),
  };
  await writeFile(join(dir, 'server.json'), JSON.stringify(info));
  return info;
}

/** Resolves once visibility counts a running workflow; throws after 20 s. */
export async function untilVisible(client: Client): Promise<void> {
  const until = Date.now() + 20_000;
  while ((await client.workflow.count('ExecutionStatus="Running"')).count === 0) {
    if (Date.now() > until) throw new Error('the started workflow never showed in visibility');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
