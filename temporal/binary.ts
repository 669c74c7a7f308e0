import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { TemporalBinaryInvalid, TemporalBinaryNotFound, TemporalBuildFailed } from './errors.ts';

/** The Temporal CLI version llm-evals builds and caches (newest tag that `go install …@version` accepts). */
export const TEMPORAL_CLI_VERSION = '1.5.1';

const EXE = process.platform === 'win32' ? '.exe' : '';
const STDERR_LIMIT = 64 * 1024;

/** Options for {@link findTemporalBinary}; `env` and `cacheRoot` exist so tests can run it in a fake world. */
export interface FindTemporalBinaryOptions {
  env?: NodeJS.ProcessEnv;
  cacheRoot?: string;
  log?: (line: string) => void;
  build?: boolean;
}

/** A process to run: what `go install` needs to build the Temporal CLI into `gobin`. */
export interface GoInstallCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** The default cache root: `$XDG_CACHE_HOME/llm-evals`, else `~/.cache/llm-evals`. */
export function defaultCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return xdg ? join(xdg, 'llm-evals') : join(env.HOME ?? homedir(), '.cache', 'llm-evals');
}

/** The folder that holds the cached `temporal` binary of {@link TEMPORAL_CLI_VERSION}. */
export function temporalCacheDir(cacheRoot: string): string {
  return join(cacheRoot, `temporal-${TEMPORAL_CLI_VERSION}`);
}

/** The `go install` invocation that builds the pinned Temporal CLI into `gobin`. */
export function goInstallCommand(go: string, gobin: string, env: NodeJS.ProcessEnv): GoInstallCommand {
  const pkg = 'github.com/temporalio/cli';
  return {
    command: go,
    args: [
      'install',
      '-ldflags',
      `-X ${pkg}/temporalcli.Version=${TEMPORAL_CLI_VERSION}`,
      `${pkg}/cmd/temporal@v${TEMPORAL_CLI_VERSION}`,
    ],
    env: { ...env, GOBIN: gobin },
  };
}

/**
 * The path of a Temporal CLI binary: LLM_EVALS_TEMPORAL_BIN, else `temporal` on PATH, else the cache,
 * else a one-time `go install` into the cache (unless `build` is false).
 */
export async function findTemporalBinary(opts: FindTemporalBinaryOptions = {}): Promise<string> {
  const env = opts.env ?? process.env;
  const explicit = env.LLM_EVALS_TEMPORAL_BIN;
  if (explicit) {
    if (await isExecutable(explicit)) return resolve(explicit);
    throw new TemporalBinaryInvalid('LLM_EVALS_TEMPORAL_BIN', explicit);
  }
  const onPath = await findOnPath('temporal', env);
  if (onPath) return onPath;

  const cacheDir = temporalCacheDir(opts.cacheRoot ?? defaultCacheRoot(env));
  const cached = join(cacheDir, `temporal${EXE}`);
  if (await isExecutable(cached)) return cached;

  const go = opts.build === false ? undefined : await findOnPath('go', env);
  if (!go) throw new TemporalBinaryNotFound(cacheDir);
  const log = opts.log ?? (() => {});
  log(
    `Building the Temporal CLI ${TEMPORAL_CLI_VERSION} with Go into ${cacheDir}. ` +
      'This happens once and may take several minutes.',
  );
  const started = Date.now();
  await buildInto(go, cacheDir, cached, env, log);
  log(`Built the Temporal CLI in ${Math.round((Date.now() - started) / 1000)} s: ${cached}`);
  return cached;
}

/** Build into a fresh temporary GOBIN next to the cache, then rename, so a half-built file is never cached. */
async function buildInto(
  go: string,
  cacheDir: string,
  target: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<void> {
  await mkdir(dirname(cacheDir), { recursive: true });
  const gobin = await mkdtemp(`${cacheDir}.build-`);
  try {
    await runGoInstall(goInstallCommand(go, gobin, env), log);
    await mkdir(cacheDir, { recursive: true });
    await rename(join(gobin, `temporal${EXE}`), target);
  } finally {
    await rm(gobin, { recursive: true, force: true });
  }
}

function runGoInstall(cmd: GoInstallCommand, log: (line: string) => void): Promise<void> {
  const shown = `GOBIN=${cmd.env.GOBIN} ${cmd.command} ${cmd.args.map((a) => (a.includes(' ') ? `"${a}"` : a)).join(' ')}`;
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd.command, cmd.args, { env: cmd.env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_LIMIT);
    });
    const started = Date.now();
    const ticker = setInterval(() => log(`Still building the Temporal CLI (${elapsed(started)})…`), 60_000);
    ticker.unref();
    child.on('error', (err) => {
      clearInterval(ticker);
      reject(new TemporalBuildFailed(shown, null, err.message));
    });
    child.on('close', (code) => {
      clearInterval(ticker);
      if (code === 0) resolvePromise();
      else reject(new TemporalBuildFailed(shown, code, stderr));
    });
  });
}

function elapsed(since: number): string {
  const s = Math.round((Date.now() - since) / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

async function findOnPath(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = resolve(dir, `${name}${EXE}`);
    if (await isExecutable(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
