import type { GateState } from './coordinator.ts';

// A worker that cannot call a contender — it lacks the provider's key, or knows no provider of that name (the run was
// planned from a config with an endpoint this worker's config lacks) — leaves its cases to wait rather than fail
// them, and says so to the run's gate the one way the gate already takes from a worker: a window under a name no call
// waits on, renewed while cases are sent back, so that `status` (which reads the gate) can say why nothing moves. It
// lapses once no worker sends any back.

const KEY_PREFIX = 'missing key ';
const PROVIDER_PREFIX = 'missing provider ';

/**
 * How long one worker's word that it cannot call a contender stands: longer than an experiment's longest pause
 * between two pools (30 s), so that it stays while only such workers take the cases, and lapses soon after one that
 * can call it does.
 */
export const MISSING_KEY_SECONDS = 45;

/** What a worker without `envVar` tells the gate for the contender it cannot call: the window's name. */
export function missingKeyWindow(envVar: string, contender: string): string {
  return `${KEY_PREFIX}${envVar} ${contender}`;
}

/** What a worker that knows no provider `provider` tells the gate for the contender it cannot call. */
export function missingProviderWindow(provider: string, contender: string): string {
  return `${PROVIDER_PREFIX}${provider} ${contender}`;
}

/** A contender whose cases wait because the workers that took them lack its key, or know no such provider. */
export type MissingKey = { envVar: string; contender: string } | { provider: string; contender: string };

/** The contenders waiting for a worker that can call them at `now`, from the gate's windows, in a stable order. */
export function missingKeysOf(gate: Pick<GateState, 'closedUntil'>, now: number): MissingKey[] {
  const split = (rest: string) => {
    const [first = '', ...others] = rest.split(' ');
    return [first, others.join(' ')] as const;
  };
  return Object.entries(gate.closedUntil)
    .filter(([, until]) => until > now)
    .flatMap(([name]): MissingKey[] => {
      if (name.startsWith(KEY_PREFIX)) {
        const [envVar, contender] = split(name.slice(KEY_PREFIX.length));
        return [{ envVar, contender }];
      }
      if (name.startsWith(PROVIDER_PREFIX)) {
        const [provider, contender] = split(name.slice(PROVIDER_PREFIX.length));
        return [{ provider, contender }];
      }
      return [];
    })
    .sort((a, b) => `${a.contender} ${lacking(a)}`.localeCompare(`${b.contender} ${lacking(b)}`));
}

/** What a waiting contender's workers lack: a key's name, or a provider's. */
export function lacking(missing: MissingKey): string {
  return 'envVar' in missing ? missing.envVar : missing.provider;
}
