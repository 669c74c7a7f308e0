import pc from 'picocolors';
import type { Silence } from '../core/silence.ts';
import { formatSeconds } from './format.ts';

/**
 * `not answering: lan/m has answered no call since 15:40:12 (45s; its slowest call took 30s) …`, a line per
 * contender: where a run that seems to run is in fact waiting on a provider that hangs.
 */
export function silenceLines(silences: readonly Silence[], now: number): string[] {
  return silences.map((s) => {
    const at = new Date(s.since).toTimeString().slice(0, 8);
    const quiet = formatSeconds(Math.round((now - s.since) / 1000));
    return (
      pc.yellow(`not answering: ${s.contender} has answered no call since ${at} (${quiet})`) +
      ` — its provider may be hanging; Ctrl-C stops, resume goes on later`
    );
  });
}
