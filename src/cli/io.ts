/** Where a command writes and what it knows of its surroundings; tests pass their own. */
export interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether a person can answer a question on stdin. */
  interactive: boolean;
  /** How wide tables and boxes may get: `COLUMNS`, else the terminal's width; none when stdout is no terminal. */
  columns?: number;
  /** Starts listening for Ctrl-C (SIGINT) or SIGTERM; long commands stop their worker and say how to resume. */
  watchInterrupt?: () => AbortSignal;
  /** The line a second Ctrl-C prints as it ends the process at once (how to resume the run). */
  lastWords?: (line: string) => void;
}

/** The width output must fit: `COLUMNS` when set to a number, else the terminal's own width, else no limit. */
export function terminalColumns(
  env: NodeJS.ProcessEnv,
  stdout: { isTTY?: boolean; columns?: number },
): number | undefined {
  const set = Number(env.COLUMNS);
  if (env.COLUMNS && Number.isInteger(set) && set > 0) return set;
  return stdout.isTTY && stdout.columns ? stdout.columns : undefined;
}

/**
 * Whether this process must stop when its parent goes: when npm started it (`npx llm-evals …`, `npm exec`, a package
 * script), SIGTERM to the npm process ends npm and its shell but reaches not this process, which would go on alone.
 */
export function followsParent(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.npm_command);
}

/** How often a process that follows its parent looks whether the parent is still there. */
const PARENT_CHECK_MS = 500;

/** The real process's streams and environment. */
export function processIo(): Io {
  // Read at start: a parent that has already gone by the time a command watches is gone all the same.
  const parent = process.ppid;
  let interrupt: AbortController | undefined;
  let farewell: string | undefined;
  // A second Ctrl-C (or SIGTERM) ends the process at once, saying how to pick the run up.
  const atOnce = () => {
    if (farewell) process.stderr.write(farewell + '\n');
    process.exit(130);
  };
  return {
    watchInterrupt() {
      if (!interrupt) {
        const controller = (interrupt = new AbortController());
        for (const signal of ['SIGINT', 'SIGTERM'] as const)
          process.once(signal, () => {
            controller.abort();
            process.once(signal, atOnce);
          });
        if (followsParent(process.env)) {
          // An orphan is handed to another parent (init, or a subreaper): its parent's id changes.
          const watch = setInterval(() => {
            if (process.ppid === parent) return;
            clearInterval(watch);
            process.stderr.write(`the process that started this one (pid ${parent}) has ended\n`);
            controller.abort();
          }, PARENT_CHECK_MS).unref();
        }
      }
      return interrupt.signal;
    },
    lastWords(line) {
      farewell = line;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
    interactive: Boolean(process.stdin.isTTY),
    columns: terminalColumns(process.env, process.stdout),
  };
}
