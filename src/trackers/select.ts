import { ConfigError, editDistance, quote } from '../errors.ts';
import type { Env, TrackerDefinition } from './types.ts';

/** What selection reads: the tracker asked for, the lineup's `tracker:`, the env and the remote trackers registered. */
export interface SelectionInput<T extends Pick<TrackerDefinition, 'name' | 'envKey'>> {
  /** The tracker asked for by name (`--tracker NAME`). */
  asked?: string;
  /** `--local`. */
  local?: boolean;
  /** The lineup's `tracker:` key, and the file it is in. */
  configured?: string;
  configFile?: string;
  env: Env;
  trackers: readonly T[];
}

/** The remote tracker chosen (none when `tracker` is unset) and the sentence `-v` prints about why. */
export interface Selection<T> {
  tracker?: T;
  reason: string;
}

/** Names that mean "no remote tracker": the local log is always written anyway. */
const NONE = ['none', 'local'];

function byName<T extends Pick<TrackerDefinition, 'name'>>(
  name: string,
  trackers: readonly T[],
  where: { file?: string; key: string },
): T | undefined {
  if (NONE.includes(name)) return undefined;
  const found = trackers.find((t) => t.name === name);
  if (found) return found;
  const known = [...trackers.map((t) => t.name), 'none'];
  const near = known
    .map((k) => ({ k, d: editDistance(name.toLowerCase(), k) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(x.k.length / 3)))
    .sort((a, b) => a.d - b.d)[0];
  const hint = near ? `; did you mean ${quote(near.k)}?` : '';
  throw new ConfigError(
    where.file,
    where.key,
    `unknown tracker ${quote(name)}${hint} (known: ${known.join(', ')})`,
  );
}

/**
 * Chooses the remote tracker: `--local` or `--tracker none` for none, then `--tracker NAME`, then the lineup's
 * `tracker:`, then the one tracker whose key is set; two keys set and nothing chosen is an error asking for a choice.
 */
export function selectTracker<T extends Pick<TrackerDefinition, 'name' | 'envKey'>>(
  input: SelectionInput<T>,
): Selection<T> {
  const { asked, local, configured, env, trackers } = input;
  if (local) {
    if (asked !== undefined && !NONE.includes(asked)) {
      throw new ConfigError(undefined, '--local', `contradicts --tracker ${asked}: choose one`);
    }
    return { reason: 'no remote tracker: --local' };
  }
  if (asked !== undefined) {
    const tracker = byName(asked, trackers, { key: '--tracker' });
    return tracker
      ? { tracker, reason: `${tracker.name}: chosen with --tracker` }
      : { reason: `no remote tracker: --tracker ${asked}` };
  }
  if (configured !== undefined) {
    const tracker = byName(configured, trackers, { file: input.configFile, key: 'tracker' });
    const where = input.configFile ? ` in ${input.configFile}` : '';
    return tracker
      ? { tracker, reason: `${tracker.name}: tracker: ${configured}${where}` }
      : { reason: `no remote tracker: tracker: ${configured}${where}` };
  }
  const keyed = trackers.filter((t) => t.envKey !== undefined && env[t.envKey]?.trim());
  if (keyed.length > 1) {
    const keys = keyed.map((t) => t.envKey!).join(' and ');
    const names = keyed.map((t) => t.name).join(' or ');
    throw new ConfigError(
      undefined,
      undefined,
      `${keys} are ${keyed.length === 2 ? 'both' : 'all'} set, so the tracker is ambiguous: choose ${names} with --tracker NAME or tracker: in the lineup (--local for none)`,
    );
  }
  const [only] = keyed;
  if (only) return { tracker: only, reason: `${only.name}: ${only.envKey} is set` };
  const keys = trackers.flatMap((t) => (t.envKey ? [t.envKey] : []));
  return {
    reason: `no remote tracker: ${keys.length ? `none of ${keys.join(', ')} is set` : 'none registered'}`,
  };
}
