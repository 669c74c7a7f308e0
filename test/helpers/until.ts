import { setTimeout as sleep } from 'node:timers/promises';

/** The states a run ends in, as `runs --json` and `status --json` say them. */
export const CLOSED = ['completed', 'regressed', 'aborted', 'failed', 'cancelled'];

/** Polls `probe` every half second until it finds something; throws naming `what` after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(500);
  }
}
