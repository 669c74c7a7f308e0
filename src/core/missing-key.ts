import type { GateState } from './coordinator.ts';

// A worker without a contender's key leaves its cases to wait rather than fail them, and says so to the run's gate the
// one way the gate already takes from a worker: a window under a name no call waits on, renewed while cases are sent
// back, so that `status` (which reads the gate) can say why nothing moves. It lapses once no worker sends any back.

const PREFIX = 'missing key ';

/**
 * How long one worker's word that it lacks a key stands: longer than an experiment's longest pause between two pools
 * (30 s), so that it stays while only keyless workers take the cases, and lapses soon after one with the key does.
 */
export const MISSING_KEY_SECONDS = 45;

/** What a worker without `envVar` tells the gate for the contender it cannot call: the window's name. */
export function missingKeyWindow(envVar: string, contender: string): string {
  return `${PREFIX}${envVar} ${contender}`;
}

/** A contender whose cases wait because the workers that took them lack a key. */
export interface MissingKey {
  envVar: string;
  contender: string;
}

/** The contenders waiting for a worker with their key at `now`, from the gate's windows, in a stable order. */
export function missingKeysOf(gate: Pick<GateState, 'closedUntil'>, now: number): MissingKey[] {
  return Object.entries(gate.closedUntil)
    .filter(([name, until]) => name.startsWith(PREFIX) && until > now)
    .map(([name]) => {
      const [envVar = '', ...rest] = name.slice(PREFIX.length).split(' ');
      return { envVar, contender: rest.join(' ') };
    })
    .sort((a, b) => `${a.contender} ${a.envVar}`.localeCompare(`${b.contender} ${b.envVar}`));
}
