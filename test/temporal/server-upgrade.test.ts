import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkReachable, ensureServer, stopServer, type ServerInfo } from '../../temporal/server.ts';
import { currentServer, recordedServer } from '../../temporal/server-record.ts';
import { SERVER_SETTINGS } from '../../temporal/server-settings.ts';
import { VERSION } from '../../src/package-root.ts';
import { recordServer, serverDirs, untilVisible } from '../helpers/own-server.ts';
import { freeServerPort, temporalBinary, withClient } from '../helpers/temporal.ts';

// A dev server that an earlier llm-evals started without a setting this version gives: started again with it when
// nothing runs on it, kept as it is (and the user told how) while something does, and taken as it is from a newer one.

const tempDir = serverDirs();

describe('a server an earlier llm-evals started, without a setting of this version', () => {
  const LEFT_OUT = 'history.MaxBufferedQueryCount=100';

  /** Starts the server as a version without LEFT_OUT did, and records it as that version would have. */
  async function olderServer(
    startedBy?: string,
  ): Promise<{ dir: string; info: ServerInfo; child: ChildProcess }> {
    const dir = await tempDir();
    const port = await freeServerPort();
    const dbFile = join(dir, 'temporal.db');
    const settings = SERVER_SETTINGS.filter(([, value]) => value !== LEFT_OUT).flat();
    const args = ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port)];
    args.push('--ui-port', String(port + 1000), '--db-filename', dbFile, '--log-level', 'warn', ...settings);
    const child = spawn(temporalBinary(), args, { cwd: dir, stdio: 'ignore' });
    const info = await recordServer(dir, child.pid!, port, startedBy);
    return { dir, info, child };
  }

  it('is started again with them when no workflow runs on it, on its ports and db', async () => {
    const { dir, info, child } = await olderServer();
    const lines: string[] = [];
    try {
      await expect(currentServer(dir)).resolves.toBeUndefined();
      const started = await ensureServer({
        stateDir: dir,
        binary: temporalBinary(),
        log: (l) => lines.push(l),
      });
      expect(started.reused).toBe(false);
      expect(started.pid).not.toBe(info.pid);
      expect([started.port, started.dbFile]).toEqual([info.port, info.dbFile]);
      expect(lines[0]).toBe(
        `Starting the Temporal dev server again: it was started without ${LEFT_OUT} (by an earlier llm-evals).`,
      );
      expect(child.exitCode ?? child.signalCode).not.toBeNull();
      const args = (await readFile(`/proc/${started.pid}/cmdline`, 'utf8')).split('\0');
      expect(args).toContain(LEFT_OUT);
      await expect(currentServer(dir)).resolves.toMatchObject({ pid: started.pid, startedBy: VERSION });
      const again = await ensureServer({ stateDir: dir, binary: temporalBinary() });
      expect([again.reused, again.pid]).toEqual([true, started.pid]);
    } finally {
      child.kill('SIGKILL');
      await stopServer(dir);
    }
  });

  it('is kept as it is while a workflow runs on it, and says how to start it with them', async () => {
    const { dir, info, child } = await olderServer();
    const lines: string[] = [];
    try {
      await checkReachable(info.address, { timeoutMs: 30_000 });
      await withClient(info.address, async (client) => {
        await client.workflow.start('noSuchWorkflow', {
          taskQueue: 'nobody-polls-this',
          workflowId: 'in-flight',
        });
        // The server counts running workflows through visibility, which lags a start (more so on a loaded machine):
        // the case is a workflow it can see.
        await untilVisible(client);
      });
      const kept = await ensureServer({ stateDir: dir, binary: temporalBinary(), log: (l) => lines.push(l) });
      expect([kept.reused, kept.pid]).toEqual([true, info.pid]);
      expect(lines).toEqual([
        `The Temporal dev server was started without ${LEFT_OUT} (by an earlier llm-evals); it keeps running as ` +
          "it is while a workflow runs on it. 'llm-evals server stop' once they end: the next command starts it " +
          'with them.',
      ]);
      await expect(currentServer(dir)).resolves.toBeUndefined();
      await expect(recordedServer(dir)).resolves.toMatchObject({ pid: info.pid });
    } finally {
      child.kill('SIGKILL');
      await stopServer(dir);
    }
  });

  it('is taken as it is when a newer llm-evals started it: its settings are its own', async () => {
    const { dir, info, child } = await olderServer('999.0.0');
    const lines: string[] = [];
    try {
      await expect(currentServer(dir)).resolves.toMatchObject({ pid: info.pid });
      const kept = await ensureServer({ stateDir: dir, binary: temporalBinary(), log: (l) => lines.push(l) });
      expect([kept.reused, kept.pid, lines]).toEqual([true, info.pid, []]);
    } finally {
      child.kill('SIGKILL');
      await stopServer(dir);
    }
  });
});
