import { spawn } from 'node:child_process';

/** The command that opens a file in a browser: `$BROWSER`, else `open` on macOS, `explorer` on Windows, `xdg-open`. */
export function browserCommand(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  if (env.BROWSER) return env.BROWSER;
  return platform === 'darwin' ? 'open' : platform === 'win32' ? 'explorer' : 'xdg-open';
}

/**
 * Opens a file in a browser without waiting for it; resolves to why it could not (no opener, no display) or to
 * `undefined`. It never rejects: a missing browser must not fail a run whose report is already written.
 */
export function openInBrowser(
  file: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  const headless = platform === 'linux' && !env.BROWSER && !env.DISPLAY && !env.WAYLAND_DISPLAY;
  if (headless) return Promise.resolve('no display to open a browser on');
  const command = browserCommand(env, platform);
  return new Promise((resolve) => {
    try {
      const child = spawn(command, [file], { detached: true, stdio: 'ignore', env });
      child.once('error', (error) => resolve(`could not run ${command}: ${error.message}`));
      child.once('spawn', () => {
        child.unref();
        resolve(undefined);
      });
    } catch (error) {
      resolve(`could not run ${command}: ${(error as Error).message}`);
    }
  });
}
