import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Calls `call` until it works: between two runs of a continue-as-new, past the in-flight update limit, or while the
 * server restarts, Temporal refuses a call for a moment. Gives up after `tries`, or at once when `final` says so.
 */
export async function again<T>(
  call: () => Promise<T>,
  { tries = 20, final = () => false }: { tries?: number; final?: (error: unknown) => boolean } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= tries || final(error)) throw error;
      await sleep(Math.min(2000, 25 * 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}
