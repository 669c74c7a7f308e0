import { setTimeout as sleep } from 'node:timers/promises';
import type { TemporalLink } from './connect.ts';

/** How often a long-lived worker checks that Temporal answers, and how long it waits for an answer. */
const EVERY_MS = 5000;
const DEADLINE_MS = 3000;

/**
 * Watches whether Temporal answers, calling `changed` when it stops answering and when it answers again, until
 * `signal` aborts. The SDK's worker itself keeps polling with back-off through an outage; this only lets the worker
 * say so, instead of sitting silent while its server is down.
 */
export async function watchTemporal(
  link: TemporalLink,
  changed: (up: boolean, error?: string) => void,
  signal: AbortSignal,
): Promise<void> {
  let up = true;
  while (!signal.aborted) {
    // The listener goes with its wait: one left per check would pile up on the signal of a worker serving for hours.
    await sleep(EVERY_MS, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) return;
    let error: string | undefined;
    try {
      await link.client.connection.withDeadline(Date.now() + DEADLINE_MS, () =>
        link.client.workflowService.getSystemInfo({}),
      );
    } catch (e) {
      error = e instanceof Error ? e.message.split('\n')[0] : String(e);
    }
    if ((error === undefined) !== up) {
      up = error === undefined;
      changed(up, error);
    }
  }
}
