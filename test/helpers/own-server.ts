import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { afterAll } from 'vitest';

// For the tests of the embedded server itself, which start dev servers of their own rather than use the shared one:
// state folders removed after the file, and a wait for visibility to see a start.

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

/** Resolves once visibility counts a running workflow; throws after 20 s. */
export async function untilVisible(client: Client): Promise<void> {
  const until = Date.now() + 20_000;
  while ((await client.workflow.count('ExecutionStatus="Running"')).count === 0) {
    if (Date.now() > until) throw new Error('the started workflow never showed in visibility');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
