/** Thrown for bad input a user can fix (a config file, a helper, a case, a flag): exit code 2, no stack trace. */
export class ConfigError extends Error {
  readonly type = 'ConfigError';
  readonly exitCode = 2;

  constructor(
    readonly file: string | undefined,
    readonly key: string | undefined,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super([file, key, problem].filter(Boolean).join(': '), options);
  }
}

/** Quotes a user's value for an error message. */
export function quote(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/** Thrown when the user interrupts a command that serves a run; the run goes on in Temporal (exit 130). */
export class Interrupted extends Error {
  readonly type = 'Interrupted';
  readonly exitCode = 130;
}
