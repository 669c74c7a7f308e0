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

/** The edit distance between two names (insertions, deletions and substitutions each count one). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The candidate nearest to a mistyped name, for "did you mean": within two edits, or a third of the candidate's
 * length; `alias` may offer a shorter spelling of each candidate to compare as well (a model's name without its vendor).
 */
export function nearest(
  name: string,
  candidates: readonly string[],
  alias: (candidate: string) => string = (c) => c,
): string | undefined {
  const typed = name.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    for (const spelling of new Set([candidate, alias(candidate)])) {
      const distance = editDistance(typed, spelling.toLowerCase());
      if (distance > Math.max(2, Math.floor(spelling.length / 3))) continue;
      if (!best || distance < best.distance) best = { candidate, distance };
    }
  }
  return best?.candidate;
}
