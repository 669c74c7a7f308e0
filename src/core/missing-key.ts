// A worker that cannot call a contender — it lacks the provider's key, or knows no provider of that name (the run was
// planned from a config with an endpoint this worker's config lacks) — leaves its cases to wait rather than fail
// them, and tells the run's gate so (the gate's `cannotCall` signal), again while it sends cases back, so that
// `status` (which reads the gate) can say why nothing moves. The word lapses once no worker sends any back.

/**
 * How long one worker's word that it cannot call a contender stands: far longer than a declined pool's next try (2 s,
 * and a worker tells it at most every 5 s), so that it stays while only such workers take the cases, and lapses soon
 * after one that can call it does.
 */
export const MISSING_KEY_SECONDS = 45;

/** A contender whose cases wait because the workers that took them lack its key, or know no such provider. */
export type MissingKey = { envVar: string; contender: string } | { provider: string; contender: string };

/** The workers' words the gate keeps: what each contender's workers lack, and until when it stands (epoch ms). */
export type CannotCall = Record<string, MissingKey & { until: number }>;

/** What a waiting contender's workers lack: a key's name, or a provider's. */
export function lacking(missing: MissingKey): string {
  return 'envVar' in missing ? missing.envVar : missing.provider;
}

/**
 * Keeps a worker's word that it cannot call a contender, told at `now`, for `seconds` (mutates `gate`); words that
 * lapsed go, so the state stays as small as the contenders still waiting.
 */
export function noteCannotCall(
  gate: { cannotCall?: CannotCall },
  missing: MissingKey,
  now: number,
  seconds: number,
): void {
  const notes = (gate.cannotCall ??= {});
  for (const [name, note] of Object.entries(notes)) if (note.until <= now) delete notes[name];
  const name = `${lacking(missing)} ${missing.contender}`;
  notes[name] = { ...missing, until: Math.max(notes[name]?.until ?? 0, now + seconds * 1000) };
}

// Workers before the gate's `cannotCall` signal told a missing key as a vendor window under a name no call waits on;
// a gate they told still says so.
const KEY_WINDOW = 'missing key ';

/** The contenders waiting for a worker that can call them at `now`, from the gate's notes, in a stable order. */
export function missingKeysOf(
  gate: { closedUntil: Record<string, number>; cannotCall?: CannotCall },
  now: number,
): MissingKey[] {
  const told: MissingKey[] = Object.values(gate.cannotCall ?? {})
    .filter((note) => note.until > now)
    .map(({ until: _until, ...missing }) => missing);
  const windows = Object.entries(gate.closedUntil)
    .filter(([name, until]) => name.startsWith(KEY_WINDOW) && until > now)
    .map(([name]): MissingKey => {
      const [envVar = '', ...rest] = name.slice(KEY_WINDOW.length).split(' ');
      return { envVar, contender: rest.join(' ') };
    });
  return [...told, ...windows].sort((a, b) =>
    `${a.contender} ${lacking(a)}`.localeCompare(`${b.contender} ${lacking(b)}`),
  );
}
