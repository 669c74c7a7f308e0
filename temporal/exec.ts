import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, resolve } from 'node:path';

/** The file-name suffix of executables on this platform. */
export const EXE = process.platform === 'win32' ? '.exe' : '';

const OUTPUT_LIMIT = 64 * 1024;

/** How a finished process ended: its exit code (null when killed or not started) and the tails of its output. */
export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  spawnError?: string;
}

/** The first executable `name` on `env.PATH`, resolved to an absolute path. */
export async function findOnPath(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = resolve(dir, `${name}${EXE}`);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** Whether `file` is a regular file this process may execute. */
export async function isExecutable(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Run a command to its end and keep the last 64 KB of stdout and stderr; `timeoutMs` kills it (code null). */
export function runCommand(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs?: number,
): Promise<Finished> {
  return new Promise((done) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs });
    const out = { stdout: '', stderr: '' };
    for (const stream of ['stdout', 'stderr'] as const) {
      child[stream].setEncoding('utf8');
      child[stream].on('data', (chunk: string) => (out[stream] = (out[stream] + chunk).slice(-OUTPUT_LIMIT)));
    }
    child.on('error', (err) => done({ code: null, ...out, spawnError: err.message }));
    child.on('close', (code) => done({ code, ...out }));
  });
}

/** The last non-empty line of a process's output, for one-line reasons in error messages. */
export function lastLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .at(-1) ?? '(no output)'
  );
}
