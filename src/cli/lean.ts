/**
 * The V8 flags a command that reads a whole suite or run runs with: a young generation of 2 MB semi-spaces, and an
 * old generation that grows by a quarter at a time. Left to itself V8 grows each semi-space to 32–64 MB while such a
 * command reads cases, decodes histories or parses snapshots (most of which survive a scavenge: they are the suite
 * or the page being made), lets the old generation grow up to fourfold before collecting it, and keeps the memory.
 * Measured in bench/RESULTS.md (the view, and `bench/big-run.ts`).
 */
export const LEAN_V8_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=25'];

/**
 * The flags of the commands that load a suite or a run and exit (`cases`, `verify`, `start`, `report`): 8 MB
 * semi-spaces. At 2 MB, a quarter of loading 100,000 cases went to scavenges that copy cases which survive anyway;
 * at 8 MB it takes 0.88 of the time for about 35 MB more (`bench/RESULTS.md`). The view, which lives on, keeps 2 MB.
 * `report` of 100,000 × 2 results peaks at 406 MiB with these flags against 439 with {@link SERVING_V8_FLAGS}, for
 * 5 % more wall time (7.2 s against 7.0; 6 paired runs, load 1.4–2.1). It took them once its statistics stopped
 * making arrays per result: before, with these flags it took 20.2 s instead of 14.0.
 */
export const SUITE_V8_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=25'];

/**
 * The flags of a standalone worker and of `resume` (a worker that ends with a report), whose memory at 100,000 × 2
 * cases is mostly old generation that V8 let grow to twice what was alive: 8 MB semi-spaces, and an old generation
 * grown by half at a time. The worker of `bench/big-run.ts 100000 2` peaked at 723 MB instead of 849, in a run no
 * slower (one run each, load about 1.5).
 */
export const SERVING_V8_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=50'];

/**
 * The commands that run lean: those that read the whole suite or a run's saved results and exit, whose memory at
 * 100,000 cases is mostly V8's young generation (`bench/big-run.ts`: `cases` 358 → 220 MB, `start` 331 → 209 MB,
 * in the same time). A standalone worker and `resume` take {@link SERVING_V8_FLAGS}: with the suite's flags the
 * worker ran 100,000 × 2 cases 40 % slower (1,209 vs 1,693 cases/s). `compare` and `run`, which plan and serve a
 * run in process, are left at V8's sizes: their speed is what `bench/throughput.ts` holds, and these flags were not
 * measured there.
 */
const LEAN_COMMANDS = new Map([
  ['cases', SUITE_V8_FLAGS],
  ['verify', SUITE_V8_FLAGS],
  ['start', SUITE_V8_FLAGS],
  ['view', LEAN_V8_FLAGS],
  ['worker', SERVING_V8_FLAGS],
  ['report', SUITE_V8_FLAGS],
  ['resume', SERVING_V8_FLAGS],
]);

/** What a relaunch needs of the process: its Node flags, its arguments, and the `execve` of Node 22.15 and later. */
export interface Relaunchable {
  execPath: string;
  execArgv: readonly string[];
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  execve?: (file: string, args?: readonly string[], env?: NodeJS.ProcessEnv) => never;
}

/**
 * The arguments this process would be started again with to run with {@link LEAN_V8_FLAGS}; `undefined` when its
 * command is not one of {@link LEAN_COMMANDS}, or when it already runs with a young generation of a set size (these
 * flags, or the user's own, on the command line or in NODE_OPTIONS). V8 sizes its heap only as Node starts:
 * `v8.setFlagsFromString` is too late.
 */
export function leanArgs(
  proc: Pick<Relaunchable, 'execPath' | 'execArgv' | 'argv' | 'env'>,
): string[] | undefined {
  const command = proc.argv.slice(2).find((a) => !a.startsWith('-'));
  const flags = command === undefined ? undefined : LEAN_COMMANDS.get(command);
  if (!flags) return undefined;
  const sized = (flag: string) => flag.includes('--max-semi-space-size');
  if (proc.execArgv.some(sized) || sized(proc.env.NODE_OPTIONS ?? '')) return undefined;
  return [proc.execPath, ...flags, ...proc.execArgv, ...proc.argv.slice(1)];
}

/**
 * Replaces this process by itself started with {@link LEAN_V8_FLAGS} (same pid, same streams, same signals), once,
 * before the command loads anything; returns when it cannot (no `execve`: Windows, an older Node) or need not. A
 * child process instead would leave this one's memory held beside it, and stand between the command and its signals.
 */
export function relaunchLean(proc: Relaunchable = process): void {
  const args = leanArgs(proc);
  if (args && proc.execve) proc.execve(proc.execPath, args, proc.env);
}
