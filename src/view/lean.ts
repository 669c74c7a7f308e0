/**
 * The V8 flags the view's process runs with: a young generation of 2 MB semi-spaces, and an old generation that grows
 * by a quarter at a time. Left to itself V8 grows each semi-space to 64 MB while the view decodes experiments' histories
 * and parses snapshots (most of which survive a scavenge: they are the page being made), lets the old generation grow
 * up to fourfold before collecting it, and keeps the memory; the pages are made in about the same time either way.
 */
export const VIEW_V8_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=25'];

/** What a relaunch needs of the process: its Node flags, its arguments, and the `execve` of Node 22.15 and later. */
export interface Relaunchable {
  execPath: string;
  execArgv: readonly string[];
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  execve?: (file: string, args?: readonly string[], env?: NodeJS.ProcessEnv) => never;
}

/**
 * The arguments this process would be started again with to run with {@link VIEW_V8_FLAGS}; `undefined` when it
 * already runs with a young generation of a set size (these flags, or the user's own). V8 sizes its heap only as Node
 * starts: `v8.setFlagsFromString` is too late.
 */
export function leanArgs(proc: Pick<Relaunchable, 'execPath' | 'execArgv' | 'argv'>): string[] | undefined {
  if (proc.execArgv.some((a) => a.startsWith('--max-semi-space-size'))) return undefined;
  return [proc.execPath, ...VIEW_V8_FLAGS, ...proc.execArgv, ...proc.argv.slice(1)];
}

/**
 * Replaces this process by itself started with {@link VIEW_V8_FLAGS} (same pid, same streams, same signals), once,
 * before the view reads anything; returns when it cannot (no `execve`: Windows, an older Node) or need not. A child
 * process instead would leave this one's memory held beside it.
 */
export function relaunchLean(proc: Relaunchable = process): void {
  const args = leanArgs(proc);
  if (args && proc.execve) proc.execve(proc.execPath, args, proc.env);
}
