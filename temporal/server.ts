import { spawn } from 'node:child_process';
import { mkdir, open, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import type { TLSConfig } from '@temporalio/client';
import { findTemporalBinary } from './binary.ts';
import { userStateDir } from '../src/dirs.ts';
import { TemporalServerExited, TemporalServerNotReady, TemporalUnreachable } from './errors.ts';
import { HOST, choosePorts, parsePort } from './ports.ts';
import { VERSION } from '../src/package-root.ts';
import { SERVER_SETTINGS } from './server-settings.ts';
import type { Ports } from './ports.ts';
import {
  forgetServer,
  lackingSettings,
  isOurServer,
  readInfo,
  recordedServer,
  rememberedPorts,
  withStartLock,
  writeInfo,
} from './server-record.ts';
import type { ServerInfo } from './server-record.ts';

export { ServerInfoSchema } from './server-record.ts';
export type { ServerInfo } from './server-record.ts';

type Exit = { code: number | null };

/** Options for {@link ensureServer}; `env` defaults to `process.env` (state dir, LLM_EVALS_TEMPORAL_PORT, binary lookup). */
export interface EnsureServerOptions {
  /** Defaults to the per-user {@link userStateDir}. */
  stateDir?: string;
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
export async function ensureServer(
  opts: EnsureServerOptions = {},
): Promise<ServerInfo & { reused: boolean }> {
  const stateDir = resolve(opts.stateDir ?? userStateDir(opts.env ?? process.env));
  const readyTimeoutMs = opts.readyTimeoutMs ?? 60_000;
  await mkdir(stateDir, { recursive: true });
  return withStartLock(stateDir, readyTimeoutMs + 10_000, async () => {
    const recorded = await readInfo(stateDir);
    // A server seen alive that dies before it answers (killed or crashed a moment ago) is started again below.
    if (recorded && (await isOurServer(recorded)) && (await readyOrGone(recorded, readyTimeoutMs))) {
      const missing = await lackingSettings(recorded);
      if (missing.length === 0) return { ...recorded, reused: true };
      // Started by an earlier llm-evals: it takes this version's settings only by starting again, which the runs in
      // flight would live through (they are durable) but would feel as an outage, so it waits until none is.
      const running = await workflowsRunning(recorded.address);
      const lacks = `without ${missing.join(', ')}`;
      if (running !== 0) {
        opts.log?.(
          `The Temporal dev server was started ${lacks} (by an earlier llm-evals); it keeps running as it is ` +
            `while ${running === 1 ? 'a workflow runs' : `${running ?? 'some'} workflows run`} on it. ` +
            "'llm-evals server stop' once they end: the next command starts it with them.",
        );
        return { ...recorded, reused: true };
      }
      opts.log?.(
        `Starting the Temporal dev server again: it was started ${lacks} (by an earlier llm-evals).`,
      );
      await stopProcess(recorded);
      await forgetServer(stateDir, recorded);
    }
    return { ...(await startServer(stateDir, readyTimeoutMs, opts)), reused: false };
  });
}

/** Waits for a recorded server to answer: true once it does, false if its process ends first. */
async function readyOrGone(recorded: ServerInfo, timeoutMs: number): Promise<boolean> {
  const gone = async () => ((await isOurServer(recorded)) ? undefined : { code: null });
  try {
    await waitUntilReady(recorded, timeoutMs, 0, gone);
    return true;
  } catch (error) {
    if (error instanceof TemporalServerExited) return false;
    throw error;
  }
}

async function startServer(
  stateDir: string,
  readyTimeoutMs: number,
  opts: EnsureServerOptions,
): Promise<ServerInfo> {
  const env = opts.env ?? process.env;
  const remembered = await rememberedPorts(stateDir);
  const { port, uiPort } = await choosePorts({
    port: opts.port ?? parsePort(env.LLM_EVALS_TEMPORAL_PORT),
    ...(opts.uiPort === undefined ? {} : { uiPort: opts.uiPort }),
    ...(remembered ? { remembered } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  const binary = opts.binary ?? (await findTemporalBinary({ env, log: opts.log }));
  const dbFile = join(stateDir, 'temporal.db');
  const logFile = join(stateDir, 'server.log');
  const logOffset = await stat(logFile).then(
    (s) => s.size,
    () => 0,
  );
  const args = startDevArgs({ port, uiPort }, dbFile, opts.extraArgs ?? []);

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
    startedBy: VERSION,
  };
  await writeInfo(stateDir, info);
  opts.log?.(`Starting the Temporal dev server on ${address} (UI ${uiUrl}, data in ${dbFile})…`);
  try {
    await waitUntilReady(info, readyTimeoutMs, logOffset, () => Promise.resolve(exit), exitEvent);
  } catch (err) {
    if (!exit) signal(info.pid, 'SIGKILL');
    await forgetServer(stateDir, remembered);
    throw err;
  }
  opts.log?.(`Temporal dev server ready in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return info;
}

/** The `temporal server start-dev` arguments of the embedded server on `ports` with its db in `dbFile`. */
function startDevArgs(ports: Ports, dbFile: string, extraArgs: readonly string[]): string[] {
  const args = [
    'server',
    'start-dev',
    '--ip',
    HOST,
    '--port',
    String(ports.port),
    '--ui-port',
    String(ports.uiPort),
  ];
  args.push('--db-filename', dbFile, '--log-format', 'json', '--log-level', 'warn');
  return [...args, ...SERVER_SETTINGS.flat(), ...extraArgs];
}

/** Stop the dev server recorded in `stateDir` (SIGTERM, then SIGKILL after 10 s); only its ports stay recorded. */
export async function stopServer(stateDir: string): Promise<{ stopped: boolean; pid?: number }> {
  const info = await readInfo(resolve(stateDir));
  if (!info) return { stopped: false };
  const stopped = await isOurServer(info);
  if (stopped) await stopProcess(info);
  await forgetServer(resolve(stateDir), info);
  return stopped ? { stopped, pid: info.pid } : { stopped };
}

/** SIGTERM to the server, then SIGKILL if it is still there after 10 s. */
async function stopProcess(info: ServerInfo): Promise<void> {
  signal(info.pid, 'SIGTERM');
  if (!(await waitGone(info, 10_000))) {
    signal(info.pid, 'SIGKILL');
    await waitGone(info, 5_000);
  }
}

/** How many workflows run on the server at `address`, over all its namespaces; undefined when it cannot say. */
async function workflowsRunning(address: string): Promise<number | undefined> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: 5_000 });
    const service = connection.workflowService;
    const { namespaces } = await service.listNamespaces({});
    let running = 0;
    for (const { namespaceInfo } of namespaces ?? []) {
      const namespace = namespaceInfo?.name;
      if (!namespace || namespace === 'temporal-system') continue;
      const { count } = await service.countWorkflowExecutions({
        namespace,
        query: 'ExecutionStatus="Running"',
      });
      running += Number(count ?? 0);
    }
    return running;
  } catch {
    return undefined;
  } finally {
    await connection?.close();
  }
}

/** Whether the dev server recorded in `stateDir` is alive and answering; `info` only when it is. */
export async function serverStatus(stateDir: string): Promise<{ running: boolean; info?: ServerInfo }> {
  const info = await recordedServer(stateDir);
  if (!info || !(await answers(info.address, 3_000))) return { running: false };
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

async function waitGone(info: ServerInfo, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!(await isOurServer(info))) return true;
    await sleep(100);
  }
  return !(await isOurServer(info));
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

async function logTail(file: string, from: number, lines = 20): Promise<string> {
  const text = await readFile(file).then(
    (b) => b.subarray(from).toString('utf8'),
    () => '',
  );
  return text.trimEnd().split('\n').slice(-lines).join('\n') || '(the log is empty)';
}
