/**
 * Which llm-evals may finish a run: the one that started it, or a later release whose workflow code replays the
 * earlier one's histories (test/replay.test.ts checks every recorded release). Pure.
 */

/** The first release that records who started a run; a run that names none was started by it or an earlier one. */
export const UNRECORDED_VERSION = '0.1.0';

/** The oldest release whose runs this one still finishes. */
export const OLDEST_FINISHED = '0.1.0';

/** The release line of a version: its major, or for 0.x its major and minor, as npm's caret ranges read it. */
function line(version: string): number[] {
  const [major = 0, minor = 0] = version.split('.').map((n) => Number.parseInt(n, 10) || 0);
  return major === 0 ? [0, minor] : [major];
}

function compare(a: string, b: string): number {
  const [x, y] = [a, b].map((v) => v.split('.').map((n) => Number.parseInt(n, 10) || 0));
  for (let i = 0; i < 3; i++) if ((x![i] ?? 0) !== (y![i] ?? 0)) return (x![i] ?? 0) - (y![i] ?? 0);
  return 0;
}

/**
 * Whether release `ours` may finish a run started by `startedBy` (undefined: a release before the version was
 * recorded); when not, the version that can, for the one line the user reads.
 */
export function whoFinishes(
  startedBy: string | undefined,
  ours: string,
): { ok: true } | { ok: false; use: string } {
  const theirs = startedBy ?? UNRECORDED_VERSION;
  const newerLine = compare(line(theirs).join('.'), line(ours).join('.')) > 0;
  if (newerLine || compare(theirs, OLDEST_FINISHED) < 0) return { ok: false, use: theirs };
  return { ok: true };
}
