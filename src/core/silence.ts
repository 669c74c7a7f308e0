/**
 * A provider that hangs (frozen, not refusing) answers nothing and fails nothing: the bars stood still and `status`
 * said `running … ETA 31.3s`. From what the pools say in their heartbeats, this tells when a contender's calls have
 * gone unanswered for longer than its slowest call so far, and at least SILENCE_FLOOR_MS.
 */

/** No answer for this long, at least, before a contender is said not to answer. */
export const SILENCE_FLOOR_MS = 30_000;

/** What one pool's heartbeat says: its contender, its calls in flight, its last answer and its slowest call. */
export interface PoolBeat {
  contender: string;
  calls: number;
  /** When a call of the pool last ended, answered or failed (epoch ms); the pool's start before its first. */
  answeredAt?: number;
  /** The longest any of its calls took so far (ms). */
  slowestMs?: number;
}

/** A contender whose calls have gone unanswered since `since` (epoch ms), longer than `limitMs`. */
export interface Silence {
  contender: string;
  since: number;
  limitMs: number;
}

/** The contenders whose calls in flight have had no answer for too long at `now`, in a stable order. */
export function silentContenders(beats: readonly PoolBeat[], now: number): Silence[] {
  const byContender = new Map<string, { calls: number; answeredAt: number; slowestMs: number }>();
  for (const beat of beats) {
    if (beat.answeredAt === undefined) continue;
    const seen = byContender.get(beat.contender) ?? { calls: 0, answeredAt: -Infinity, slowestMs: 0 };
    seen.calls += beat.calls;
    seen.answeredAt = Math.max(seen.answeredAt, beat.answeredAt);
    seen.slowestMs = Math.max(seen.slowestMs, beat.slowestMs ?? 0);
    byContender.set(beat.contender, seen);
  }
  return [...byContender]
    .flatMap(([contender, { calls, answeredAt, slowestMs }]) => {
      const limitMs = Math.max(SILENCE_FLOOR_MS, slowestMs);
      return calls > 0 && now - answeredAt > limitMs ? [{ contender, since: answeredAt, limitMs }] : [];
    })
    .sort((a, b) => a.contender.localeCompare(b.contender));
}
