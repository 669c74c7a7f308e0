/** Where a command writes and what it knows of its surroundings; tests pass their own. */
export interface Io {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether a person can answer a question on stdin. */
  interactive: boolean;
}

/** The real process's streams and environment. */
export function processIo(): Io {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    cwd: process.cwd(),
    env: process.env,
    interactive: Boolean(process.stdin.isTTY),
  };
}
