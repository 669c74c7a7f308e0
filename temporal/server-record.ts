import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Ports } from './ports.ts';
import { VERSION } from '../src/package-root.ts';
import { settingsToApply } from './server-settings.ts';

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
  /** The llm-evals version that started it (absent: one from before this was recorded). */
  startedBy: z.string().optional(),
});
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

// After a stop only the ports stay, so the next start comes back on the same address (and UI bookmark).
const PortsSchema = z.object({ port: z.number().int(), uiPort: z.number().int() });

/** The path of the record of the server of `stateDir`. */
export function infoFile(stateDir: string): string {
  return join(stateDir, 'server.json');
}

/** The running server recorded in `stateDir`, if the record says one was started (it may have died since). */
export async function readInfo(stateDir: string): Promise<ServerInfo | undefined> {
  return ServerInfoSchema.safeParse(await readJson(stateDir)).data;
}

/** The ports the server of `stateDir` used last, running or not. */
export async function rememberedPorts(stateDir: string): Promise<Ports | undefined> {
  const ports = PortsSchema.safeParse(await readJson(stateDir)).data;
  return ports && { port: ports.port, uiPort: ports.uiPort };
}

/** Replace the record atomically (temp file + rename), so a reader never sees half of it. */
export async function writeInfo(stateDir: string, info: ServerInfo | Ports): Promise<void> {
  const tmp = `${infoFile(stateDir)}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(info, null, 2)}\n`);
  await rename(tmp, infoFile(stateDir));
}

/** Record that no server runs: keep only `ports` to come back to, or remove the record when there are none. */
export async function forgetServer(stateDir: string, ports: Ports | undefined): Promise<void> {
  if (ports) await writeInfo(stateDir, { port: ports.port, uiPort: ports.uiPort });
  else await rm(infoFile(stateDir), { force: true });
}

/** Serialise starts on one state folder across processes; a lock whose holder died, or that outlived `timeoutMs`, is broken. */
export async function withStartLock<T>(
  stateDir: string,
  timeoutMs: number,
  fn: () => Promise<T>,
): Promise<T> {
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

/** Whether a process with this pid exists (EPERM: it does, but belongs to someone else). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Alive and, where /proc exists, still the process we started on this db (pids get reused; zombies have no cmdline). */
export async function isOurServer(info: ServerInfo): Promise<boolean> {
  if (!isAlive(info.pid)) return false;
  const args = await commandLine(info.pid);
  return args === undefined || args.includes(info.dbFile);
}

/** The arguments a process was started with, where the system shows them (Linux's /proc). */
export async function commandLine(pid: number): Promise<string[] | undefined> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  return cmdline?.replace(/\0$/, '').split('\0');
}

/** The dev server recorded in `stateDir` when its process is alive (not asked whether it answers). */
export async function recordedServer(stateDir: string): Promise<ServerInfo | undefined> {
  const info = await readInfo(resolve(stateDir));
  return info && (await isOurServer(info)) ? info : undefined;
}

/**
 * The dev server recorded in `stateDir` when it is alive and runs with every setting of this version: one an earlier
 * llm-evals started may lack some, and is left to ensureServer (which starts it again when no run is in flight). One
 * a newer llm-evals started is taken as it is.
 */
export async function currentServer(stateDir: string): Promise<ServerInfo | undefined> {
  const info = await recordedServer(stateDir);
  return info && (await lackingSettings(info)).length === 0 ? info : undefined;
}

/** The settings this version would give the running server `info` by starting it again (settingsToApply). */
export async function lackingSettings(info: ServerInfo): Promise<string[]> {
  return settingsToApply(await commandLine(info.pid), info.startedBy, VERSION);
}

async function readJson(stateDir: string): Promise<unknown> {
  const text = await readFile(infoFile(stateDir), 'utf8').catch(() => undefined);
  try {
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
