import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { join } from 'node:path';
import { SearchAttributeType, defineSearchAttributeKey } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TemporalPortInvalid,
  TemporalPortTaken,
  TemporalServerExited,
  TemporalUnreachable,
} from '../../temporal/errors.ts';
import {
  checkReachable,
  ensureServer,
  serverStatus,
  stopServer,
  type ServerInfo,
} from '../../temporal/server.ts';
import { SEARCH_ATTRIBUTES } from '../../temporal/server-settings.ts';
import { runCli } from '../helpers/cli.ts';
import { recordServer, serverDirs } from '../helpers/own-server.ts';
import { freeServerPort, temporalBinary, withClient } from '../helpers/temporal.ts';

// The embedded dev server: started, found again, on its ports, with its settings, stopped and started again on its
// db. The settings' tables are server-settings.test.ts; a server an earlier release started, server-upgrade.test.ts.

const runIdKey = defineSearchAttributeKey('LlmEvalsRunId', SearchAttributeType.KEYWORD);
const projectKey = defineSearchAttributeKey('LlmEvalsProject', SearchAttributeType.KEYWORD);
const tempDir = serverDirs();
let stateDir: string;
let first: ServerInfo & { reused: boolean };

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  stateDir = await tempDir();
  first = await ensureServer({ stateDir, binary: temporalBinary(), port: await freeServerPort() });
});
afterAll(async () => {
  await stopServer(stateDir);
});

describe('ensureServer', () => {
  it('starts a dev server on 127.0.0.1 with the UI at port + 1000 and records it', async () => {
    expect(first).toMatchObject({
      reused: false,
      address: `127.0.0.1:${first.port}`,
      uiPort: first.port + 1000,
    });
    expect(first.dbFile).toBe(join(stateDir, 'temporal.db'));
    const status = await serverStatus(stateDir);
    expect(status).toEqual({ running: true, info: expect.objectContaining({ pid: first.pid }) as unknown });
  });

  it('reuses the recorded server', async () => {
    const again = await ensureServer({ stateDir, binary: temporalBinary() });
    expect(again).toMatchObject({ reused: true, pid: first.pid, address: first.address });
  });

  it.each([
    ['gRPC', 0, (port: number) => ({ env: { LLM_EVALS_TEMPORAL_PORT: String(port) } })],
    ['UI', 1000, (port: number) => ({ port })],
  ] as const)(
    'throws TemporalPortTaken when the %s port is held by another program',
    async (role, offset, choose) => {
      const port = await freeServerPort();
      const holder = await listen(port + offset);
      try {
        const dir = await tempDir();
        const started = ensureServer({ stateDir: dir, binary: temporalBinary(), ...choose(port) });
        await expect(started).rejects.toBeInstanceOf(TemporalPortTaken);
        await expect(started).rejects.toMatchObject({ port: port + offset, role });
        await expect(started).rejects.toThrow(/LLM_EVALS_TEMPORAL_PORT/);
        expect(await readdir(dir)).toEqual([]);
      } finally {
        holder.close();
      }
    },
  );

  it.each(['abc', '0', '70000', '7233.5'])('rejects LLM_EVALS_TEMPORAL_PORT=%s', async (value) => {
    const started = ensureServer({ stateDir: await tempDir(), env: { LLM_EVALS_TEMPORAL_PORT: value } });
    await expect(started).rejects.toBeInstanceOf(TemporalPortInvalid);
  });

  it('starts one server when two callers race on the same folder', async () => {
    const dir = await tempDir();
    const port = await freeServerPort();
    const [a, b] = await Promise.all(
      [0, 1].map(() => ensureServer({ stateDir: dir, binary: temporalBinary(), port })),
    );
    expect(a?.pid).toBe(b?.pid);
    expect([a?.reused, b?.reused].sort()).toEqual([false, true]);
    await expect(stopServer(dir)).resolves.toEqual({ stopped: true, pid: a?.pid });
  });

  it("throws TemporalPortTaken for a port held by another state folder's server", async () => {
    const started = ensureServer({ stateDir: await tempDir(), binary: temporalBinary(), port: first.port });
    await expect(started).rejects.toMatchObject({ code: 'TemporalPortTaken', port: first.port });
  });

  it('starts a server again when the recorded one dies while it is waited for (killed a moment before)', async () => {
    const dir = await tempDir();
    const port = await freeServerPort();
    const dbFile = join(dir, 'temporal.db');
    // A process that passes for the recorded server (its command line names the db) and ends without answering.
    const dying = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 800)', dbFile], { stdio: 'ignore' });
    const recorded = await recordServer(dir, dying.pid!, port);
    const started = await ensureServer({ stateDir: dir, binary: temporalBinary() });
    expect(dying.exitCode).toBe(0);
    expect(started).toMatchObject({ reused: false, port, dbFile });
    expect(started.pid).not.toBe(recorded.pid);
    await checkReachable(started.address);
    await expect(stopServer(dir)).resolves.toEqual({ stopped: true, pid: started.pid });
  });

  it('reports the end of the log when the server exits before it is ready', async () => {
    const dir = await tempDir();
    const fake = join(dir, 'fake-temporal');
    await writeFile(fake, '#!/bin/sh\necho "first line"\necho "unknown flag: --bogus" >&2\nexit 3\n');
    await chmod(fake, 0o755);
    const started = ensureServer({
      stateDir: join(dir, 'state'),
      binary: fake,
      port: await freeServerPort(),
    });
    await expect(started).rejects.toBeInstanceOf(TemporalServerExited);
    await expect(started).rejects.toMatchObject({
      serverExitCode: 3,
      logTail: 'first line\nunknown flag: --bogus',
    });
    expect(await readdir(join(dir, 'state'))).toEqual(['server.log']);
  });
});

describe('the SQLite and dynamic-config settings', () => {
  it('runs the db in WAL mode (a -wal file beside it after a write) and registers every search attribute', async () => {
    await withClient(first.address, (client) =>
      client.workflow.start('noSuchWorkflow', {
        taskQueue: 'nobody-polls-this',
        workflowId: `wal-${Date.now()}`,
        typedSearchAttributes: [{ key: projectKey, value: 'p' }],
      }),
    );
    // Without journal_mode=wal SQLite keeps a -journal file, and only during a transaction.
    expect(existsSync(`${first.dbFile}-wal`)).toBe(true);
    const cmdline = await readFile(`/proc/${first.pid}/cmdline`, 'utf8').catch(() => undefined);
    if (cmdline !== undefined) {
      const args = cmdline.split('\0');
      const values = [
        'synchronous=normal',
        'system.enableActivityEagerExecution=true',
        'history.MaxBufferedQueryCount=100',
      ];
      for (const value of values) expect(args).toContain(value);
      for (const name of SEARCH_ATTRIBUTES) expect(args).toContain(`${name}=Keyword`);
    }
  });
});

describe('one server per user, on a port it remembers', () => {
  it('moves off a remembered port another program holds, remembers the new one, and comes back to it', async () => {
    const dir = await tempDir();
    const held = await freeServerPort();
    await writeFile(join(dir, 'server.json'), JSON.stringify({ port: held, uiPort: held + 1000 }));
    const holder = await listen(held);
    const lines: string[] = [];
    let moved: ServerInfo & { reused: boolean };
    try {
      moved = await ensureServer({
        stateDir: dir,
        binary: temporalBinary(),
        env: {},
        log: (l) => lines.push(l),
      });
    } finally {
      holder.close();
    }
    try {
      expect(moved.port).not.toBe(held);
      expect(lines).toContainEqual(expect.stringMatching(`Port ${held} is held by another program`));
      const recorded = JSON.parse(await readFile(join(dir, 'server.json'), 'utf8')) as ServerInfo;
      expect(recorded).toMatchObject({ pid: moved.pid, port: moved.port, uiPort: moved.uiPort });

      const next = await ensureServer({ stateDir: dir, binary: temporalBinary(), env: {} });
      expect(next).toMatchObject({ reused: true, pid: moved.pid, port: moved.port });

      await stopServer(dir);
      expect(JSON.parse(await readFile(join(dir, 'server.json'), 'utf8'))).toEqual({
        port: moved.port,
        uiPort: moved.uiPort,
      });
      // The held port is free again: the server still comes back where it was last.
      const again = await ensureServer({ stateDir: dir, binary: temporalBinary(), env: {} });
      expect(again).toMatchObject({ reused: false, port: moved.port, uiPort: moved.uiPort });
    } finally {
      await stopServer(dir);
    }
  });

  it('serves two projects from one server: started in one, found (same pid) from the other', async () => {
    const root = await tempDir();
    const [a, b] = ['project-a', 'project-b'].map((name) => join(root, name));
    await Promise.all([a!, b!].map((p) => mkdir(p)));
    const env = {
      LLM_EVALS_STATE_DIR: join(root, 'state'),
      LLM_EVALS_TEMPORAL_BIN: temporalBinary(),
      LLM_EVALS_TEMPORAL_PORT: String(await freeServerPort()),
    };
    try {
      const started = await runCli(['server', 'start'], { cwd: a!, env });
      expect(started.code, started.stderr).toBe(0);
      const pid = /^started: .* \(pid (\d+)\)/.exec(started.stdout)?.[1];
      expect(pid).toBeDefined();

      const again = await runCli(['server', 'start'], { cwd: b!, env });
      expect(again.stdout).toMatch(new RegExp(`^already running: .* \\(pid ${pid}\\)`));
      const status = await runCli(['server', 'status'], { cwd: b!, env });
      expect(status.code).toBe(0);
      expect(status.stdout).toContain(`state:   ${env.LLM_EVALS_STATE_DIR}\n`);
      expect(status.stdout).toContain(`address: 127.0.0.1:${env.LLM_EVALS_TEMPORAL_PORT}\n`);
      expect(status.stdout).toMatch(/UI: {6}http:\/\/127\.0\.0\.1:\d+\n/);
      expect(status.stdout).toContain(`pid:     ${pid}\n`);
      expect(status.stdout).toContain(`binary:  ${temporalBinary()}\n`);
      expect(status.stdout).toMatch(/version: \d+\.\d+\.\d+\n/);
    } finally {
      await stopServer(env.LLM_EVALS_STATE_DIR);
    }
  });
});

describe('stopServer and restart', () => {
  it('stops the server, and a restart on the same db keeps workflows and search attributes', async () => {
    const workflowId = `persist-${Date.now()}`;
    await withClient(first.address, (client) =>
      client.workflow.start('noSuchWorkflow', {
        taskQueue: 'nobody-polls-this',
        workflowId,
        typedSearchAttributes: [
          { key: runIdKey, value: 'run-1' },
          { key: projectKey, value: '/home/me/project' },
        ],
      }),
    );

    await expect(stopServer(stateDir)).resolves.toEqual({ stopped: true, pid: first.pid });
    // The killed server is our child until this process reaps it; give that a moment on a busy machine.
    await expect.poll(() => isAlive(first.pid), { timeout: 10_000 }).toBe(false);
    await expect(serverStatus(stateDir)).resolves.toEqual({ running: false });

    // A stale record (dead pid) must not be mistaken for a running server.
    await writeFile(join(stateDir, 'server.json'), JSON.stringify(first));
    const restarted = await ensureServer({ stateDir, binary: temporalBinary(), port: first.port });
    expect(restarted.reused).toBe(false);
    expect(restarted.pid).not.toBe(first.pid);

    const description = await withClient(restarted.address, (client) =>
      client.workflow.getHandle(workflowId).describe(),
    );
    expect(description.status.name).toBe('RUNNING');
    expect(description.typedSearchAttributes.get(runIdKey)).toBe('run-1');
    expect(description.typedSearchAttributes.get(projectKey)).toBe('/home/me/project');
  });

  it('reports nothing to stop in a folder without a server', async () => {
    await expect(stopServer(await tempDir())).resolves.toEqual({ stopped: false });
  });
});

describe('checkReachable', () => {
  it('resolves for a server that answers', async () => {
    await expect(checkReachable(first.address, { timeoutMs: 20_000 })).resolves.toBeUndefined();
  });

  it('rejects with TemporalUnreachable naming the address within the timeout', async () => {
    const port = await freeServerPort();
    const started = Date.now();
    const reached = checkReachable(`127.0.0.1:${port}`, { timeoutMs: 3_000 });
    await expect(reached).rejects.toBeInstanceOf(TemporalUnreachable);
    await expect(reached).rejects.toThrow(`127.0.0.1:${port}`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
