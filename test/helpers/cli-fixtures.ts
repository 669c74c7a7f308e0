import { afterAll } from 'vitest';
import type { CliProcess } from './cli.ts';
import type { FaultServer } from './fault-server.ts';
import { TempDirs } from './suite-dir.ts';

/**
 * What a test file of the real CLI leaves behind — its folders, provider servers and CLI processes — cleaned up once
 * its tests are done: a process still running is killed, every server stopped, every folder removed.
 */
export function cliFixtures<S extends { stop(): Promise<unknown> } = FaultServer>(): {
  dirs: TempDirs;
  servers: S[];
  spawned: CliProcess[];
} {
  const dirs = new TempDirs();
  const servers: S[] = [];
  const spawned: CliProcess[] = [];
  afterAll(async () => {
    for (const cli of spawned) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
    await Promise.all(servers.map((s) => s.stop()));
    dirs.removeAll();
  });
  return { dirs, servers, spawned };
}
