import { Context } from '@temporalio/activity';

/** How often a running activity tells Temporal its worker is alive. */
export const HEARTBEAT_SECONDS = 2;

/**
 * An activity that tells Temporal its worker is alive while it works. Without heartbeats, a worker killed in the
 * middle of one (a retried case, a track sending to a slow tracker, a scheduled run's planning) holds its run until the activity's
 * whole start-to-close timeout has passed — ten minutes for a track; with them, the workflow's heartbeat timeout
 * sends it to another worker within seconds.
 */
export function heartbeating<A extends unknown[], R>(activity: (...args: A) => Promise<R>) {
  return async (...args: A): Promise<R> => {
    const context = Context.current();
    const beat = setInterval(() => context.heartbeat(), HEARTBEAT_SECONDS * 1000);
    try {
      return await activity(...args);
    } finally {
      clearInterval(beat);
    }
  };
}
