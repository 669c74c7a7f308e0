import { spawn } from 'node:child_process';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import type { TLSConfig } from '@temporalio/client';
import { z } from 'zod';
import { findTemporalBinary } from './binary.ts';
import {
  TemporalPortInvalid,
  TemporalPortTaken,
  TemporalServerExited,
  TemporalServerNotReady,
  TemporalUnreachable,
} from './errors.ts';

const HOST = '127.0.0.1';
const DEFAULT_PORT = 7233;

type Exit = { code: number | null };

/** The custom search attributes every embedded server registers, so `runs`/`status` can find runs. */
export const SEARCH_ATTRIBUTES = ['LlmEvalsRunId', 'LlmEvalsSuite', 'LlmEvalsState'] as const;

/** What `<stateDir>/server.json` records about a running embedded dev server. */
export const ServerInfoSchema = z.object({
  pid: z.number().int().positive(),
  address: z.string(),
  uiUrl: z.string(),
  port: z.number().int(),
  uiPort: z.number().int(),
  dbFile: z.string(),
  logFile: z.string(),
  binary: z.string(),
  startedAt: z.string(),
});
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

/** Options for {@link ensureServer}; `env` defaults to `process.env` (LLM_EVALS_TEMPORAL_PORT, binary lookup). */
export interface EnsureServerOptions {
  stateDir: string;
  binary?: string;
  port?: number;
  uiPort?: number;
  extraArgs?: string[];
  log?: (line: string) => void;
  readyTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** Options for {@link checkReachable}. */
export interface ReachOptions {
  timeoutMs?: number;
  tls?: TLSConfig | boolean;
  apiKey?: string;
}

/** Reuse the dev server recorded in `stateDir`, or start a detached one on a SQLite file there and wait until it answers. */
export async function ensureServer(opts: EnsureServerOptions): Promise<ServerInfo & { reused: boolean }> {
  const stateDir = resolve(opts.stateDir);
  const readyTimeoutMs = opts.readyTimeoutMs ?? 60_000;
  await mkdir(stateDir, { recursive: true });
  return withStartLock(stateDir, readyTimeoutMs + 10_000, async () => {
    const recorded = await readInfo(stateDir);
    if (recorded && (await isOurServer(recorded))) {
      const gone = async () => ((await isOurServer(recorded)) ? undefined : { code: null });
      await waitUntilReady(recorded, readyTimeoutMs, 0, gone);
      return { ...recorded, reused: true };
    }
    if (recorded) await rm(infoFile(stateDir), { force: true });
    return { ...(await startServer(stateDir, readyTimeoutMs, opts)), reused: false };
  });
}

async function startServer(
  stateDir: string,
  readyTimeoutMs: number,
  opts: EnsureServerOptions,
): Promise<ServerInfo> {
  const env = opts.env ?? process.env;
  const port = opts.port ?? parsePort(env.LLM_EVALS_TEMPORAL_PORT) ?? DEFAULT_PORT;
  const uiPort = opts.uiPort ?? port + 1000;
  if (!(await isPortFree(port))) throw new TemporalPortTaken(port, 'gRPC');
  if (!(await isPortFree(uiPort))) throw new TemporalPortTaken(uiPort, 'UI');
  const binary = opts.binary ?? (await findTemporalBinary({ env, log: opts.log }));
  const dbFile = join(stateDir, 'temporal.db');
  const logFile = join(stateDir, 'server.log');
  const logOffset = await stat(logFile).then(
    (s) => s.size,
    () => 0,
  );
  const args = ['server', 'start-dev', '--ip', HOST, '--port', String(port), '--ui-port', String(uiPort)];
  args.push('--db-filename', dbFile, '--log-format', 'json', '--log-level', 'warn');
  args.push('--dynamic-config-value', 'frontend.enableUpdateWorkflowExecution=true');
  args.push('--dynamic-config-value', 'frontend.enableExecuteMultiOperation=true');
  for (const name of SEARCH_ATTRIBUTES) args.push('--search-attribute', `${name}=Keyword`);
  args.push(...(opts.extraArgs ?? []));

  const started = Date.now();
  let exit: Exit | undefined;
  const log = await open(logFile, 'a');
  const child = spawn(binary, args, { cwd: stateDir, detached: true, stdio: ['ignore', log.fd, log.fd] });
  // Listen before any await: a binary that fails at once can exit before the next tick.
  const exitEvent = new Promise<void>((done) => {
    child.once('exit', (code) => {
      exit = { code };
      done();
    });
  });
  try {
    await new Promise((ok, fail) => child.once('spawn', ok).once('error', fail));
  } finally {
    await log.close();
  }
  child.unref();
  const address = `${HOST}:${port}`;
  const uiUrl = `http://${HOST}:${uiPort}`;
  const info = {
    pid: child.pid!,
    address,
    uiUrl,
    port,
    uiPort,
    dbFile,
    logFile,
    binary,
    startedAt: new Date().toISOString(),
  };
  await writeInfo(stateDir, info);
  opts.log?.(`Starting the Temporal dev server on ${address} (UI ${uiUrl}, data in ${dbFile})…`);
  try {
    await waitUntilReady(info, readyTimeoutMs, logOffset, () => Promise.resolve(exit), exitEvent);
  } catch (err) {
    if (!exit) signal(info.pid, 'SIGKILL');
    await rm(infoFile(stateDir), { force: true });
    throw err;
  }
  opts.log?.(`Temporal dev server ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return info;
}

/** Stop the dev server recorded in `stateDir` (SIGTERM, then SIGKILL after 10 s) and forget it. */
export async function stopServer(stateDir: string): Promise<{ stopped: boolean; pid?: number }> {
  const info = await readInfo(resolve(stateDir));
  if (!info) return { stopped: false };
  let stopped = false;
  if (await isOurServer(info)) {
    signal(info.pid, 'SIGTERM');
    if (!(await waitGone(info, 10_000))) {
      signal(info.pid, 'SIGKILL');
      await waitGone(info, 5_000);
    }
    stopped = true;
  }
  await rm(infoFile(resolve(stateDir)), { force: true });
  return stopped ? { stopped, pid: info.pid } : { stopped };
}

/** Whether the dev server recorded in `stateDir` is alive and answering; `info` only when it is. */
export async function serverStatus(stateDir: string): Promise<{ running: boolean; info?: ServerInfo }> {
  const info = await readInfo(resolve(stateDir));
  if (!info || !(await isOurServer(info)) || !(await answers(info.address, 3_000))) return { running: false };
  return { running: true, info };
}

/** Resolve once a Temporal server at `address` answers; throw {@link TemporalUnreachable} within `timeoutMs`. */
export async function checkReachable(address: string, opts: ReachOptions = {}): Promise<void> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let connection: Connection | undefined;
  try {
    connection = Connection.lazy({ address, tls: opts.tls, apiKey: opts.apiKey, connectTimeout: timeoutMs });
    await connection.ensureConnected();
  } catch (err) {
    throw new TemporalUnreachable(address, timeoutMs, err);
  } finally {
    await connection?.close();
  }
}

/** Poll until the server answers; `exitEvent` cuts a probe short when the process we started dies. */
async function waitUntilReady(
  info: ServerInfo,
  timeoutMs: number,
  logOffset: number,
  exited: () => Promise<Exit | undefined>,
  exitEvent: Promise<void> = new Promise(() => {}),
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const exit = await exited();
    if (exit) throw new TemporalServerExited(exit.code, info.logFile, await logTail(info.logFile, logOffset));
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw new TemporalServerNotReady(info.address, timeoutMs, await logTail(info.logFile, logOffset));
    }
    const probe = answers(info.address, Math.min(remaining, 2_000));
    if (await Promise.race([probe, exitEvent.then(() => false)])) return;
    await sleep(Math.min(200, Math.max(0, deadline - Date.now())));
  }
}

async function answers(address: string, timeoutMs: number): Promise<boolean> {
  return checkReachable(address, { timeoutMs }).then(
    () => true,
    () => false,
  );
}

/** Alive and, where /proc exists, still the process we started on this db (pids get reused; zombies have no cmdline). */
async function isOurServer(info: ServerInfo): Promise<boolean> {
  if (!isAlive(info.pid)) return false;
  const cmdline = await readFile(`/proc/${info.pid}/cmdline`, 'utf8').catch(() => undefined);
  return cmdline === undefined || cmdline.includes(info.dbFile);
}

async function waitGone(info: ServerInfo, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await isOurServer(info))) return true;
    await sleep(100);
  }
  return !(await isOurServer(info));
}

/** Serialise starts on one state folder across processes; a lock whose holder died, or that outlived `timeoutMs`, is broken. */
async function withStartLock<T>(stateDir: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const lock = join(stateDir, 'server.lock');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await writeFile(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(await readFile(lock, 'utf8').catch(() => ''));
      if ((holder > 0 && !isAlive(holder)) || Date.now() > deadline) await rm(lock, { force: true });
      else await sleep(100);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lock, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? ok(false) : fail(err)));
    probe.listen({ port, host: HOST, exclusive: true }, () => probe.close(() => ok(true)));
  });
}

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 64535) throw new TemporalPortInvalid(value);
  return port;
}

function infoFile(stateDir: string): string {
  return join(stateDir, 'server.json');
}

async function readInfo(stateDir: string): Promise<ServerInfo | undefined> {
  const text = await readFile(infoFile(stateDir), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    return ServerInfoSchema.parse(JSON.parse(text));
  } catch {
    return undefined;
  }
}

async function writeInfo(stateDir: string, info: ServerInfo): Promise<void> {
  const tmp = `${infoFile(stateDir)}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(info, null, 2)}\n`);
  await rename(tmp, infoFile(stateDir));
}

async function logTail(file: string, from: number, lines = 20): Promise<string> {
  const text = await readFile(file).then(
    (b) => b.subarray(from).toString('utf8'),
    () => '',
  );
  return text.trimEnd().split('\n').slice(-lines).join('\n') || '(the log is empty)';
}
