import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EXE, lastLine, runCommand } from './exec.ts';
import { TEMPORAL_GO_VERSION } from './versions.ts';

/** A process to run: what `go install` needs to build the Temporal CLI into `gobin`. */
export interface GoInstallCommand {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** The `go install` invocation that builds the pinned Temporal CLI into `gobin`. */
export function goInstallCommand(go: string, gobin: string, env: NodeJS.ProcessEnv): GoInstallCommand {
  const pkg = 'github.com/temporalio/cli';
  return {
    command: go,
    args: [
      'install',
      '-ldflags',
      `-X ${pkg}/temporalcli.Version=${TEMPORAL_GO_VERSION}`,
      `${pkg}/cmd/temporal@v${TEMPORAL_GO_VERSION}`,
    ],
    env: { ...env, GOBIN: gobin },
  };
}

/** Build the Temporal CLI with `go` into `target` (the last way, minutes long); the reason when the build fails. */
export async function buildWithGo(
  go: string,
  target: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Promise<{ path: string } | { failed: string }> {
  const cacheDir = dirname(target);
  log(
    `Building the Temporal CLI ${TEMPORAL_GO_VERSION} with Go into ${cacheDir}. ` +
      'This happens once and may take several minutes.',
  );
  const started = Date.now();
  await mkdir(dirname(cacheDir), { recursive: true });
  // A fresh GOBIN next to the cache, renamed into place after, so a half-built file is never cached.
  const gobin = await mkdtemp(`${cacheDir}.build-`);
  try {
    const cmd = goInstallCommand(go, gobin, env);
    const failed = await runGoInstall(cmd, started, log);
    if (failed) return { failed: `\`go ${cmd.args.join(' ')}\` ${failed}` };
    await mkdir(cacheDir, { recursive: true });
    await rename(join(gobin, `temporal${EXE}`), target);
  } finally {
    await rm(gobin, { recursive: true, force: true });
  }
  log(`Built the Temporal CLI in ${elapsed(started)}: ${target}`);
  return { path: target };
}

/** Run `go install`, logging each minute so a long build does not look hung; the failure, if any. */
async function runGoInstall(
  cmd: GoInstallCommand,
  started: number,
  log: (line: string) => void,
): Promise<string | undefined> {
  const ticker = setInterval(() => log(`Still building the Temporal CLI (${elapsed(started)})…`), 60_000);
  ticker.unref();
  try {
    const result = await runCommand(cmd.command, cmd.args, cmd.env);
    if (result.spawnError) return `could not start: ${result.spawnError}`;
    return result.code === 0 ? undefined : `failed (exit ${String(result.code)}): ${lastLine(result.stderr)}`;
  } finally {
    clearInterval(ticker);
  }
}

function elapsed(since: number): string {
  const s = Math.round((Date.now() - since) / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}
