import type { Scale } from './config.ts';
import type { VerdictResult } from './verdict.ts';

/**
 * Verdicts combined: the majority (pass/fail) or the median (a scale) of the scores that were read. `value` is on
 * 0–1, `null` when nothing was read or on a tie; a tie is a tie (never broken by order); `n` is how many verdicts
 * stood, `failed` how many were judge failures.
 */
export interface Combined {
  value: number | null;
  tie: boolean;
  n: number;
  failed: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Combines unit values (each 0–1, or `null` for a failure) by the scale's rule. */
export function combine(scale: Scale, values: readonly (number | null)[]): Combined {
  const read = values.filter((v): v is number => v !== null);
  const failed = values.length - read.length;
  if (read.length === 0) return { value: null, tie: false, n: 0, failed };
  if (scale.kind === 'pass_fail') {
    const pass = read.filter((v) => v === 1).length;
    const fail = read.length - pass;
    if (pass === fail) return { value: null, tie: true, n: read.length, failed };
    return { value: pass > fail ? 1 : 0, tie: false, n: read.length, failed };
  }
  return { value: median(read), tie: false, n: read.length, failed };
}

/** One judge's verdict on a reply from its k samples: combined, with `unstable` when the samples read differ. */
export interface JudgeVerdict extends Combined {
  unstable: boolean;
  /** The failures' reasons and raw text, in sample order. */
  failures: { reason: string; raw: string }[];
  reasoning: string[];
}

/** A judge's k samples on one reply → its verdict: majority or median; unstable when the read samples differ. */
export function sampleVerdict(scale: Scale, samples: readonly VerdictResult[]): JudgeVerdict {
  const values = samples.map((s) => (s.ok ? s.value : null));
  const read = values.filter((v): v is number => v !== null);
  return {
    ...combine(scale, values),
    unstable: new Set(read).size > 1,
    failures: samples.flatMap((s) => (s.ok ? [] : [{ reason: s.reason, raw: s.raw }])),
    reasoning: samples.flatMap((s) => (s.ok ? [s.reasoning] : [])),
  };
}

/** The panel's verdict on a reply, from each member's verdict (a member with no read sample leaves it smaller). */
export interface PanelVerdict extends Combined {
  /** Each member's value by model, `null` for a member that failed or tied. */
  members: Record<string, number | null>;
}

export function panelVerdict(scale: Scale, members: Readonly<Record<string, JudgeVerdict>>): PanelVerdict {
  const values = Object.values(members).map((m) => m.value);
  const failed = Object.values(members).filter((m) => m.n === 0).length;
  const c = combine(scale, values);
  return {
    ...c,
    failed,
    members: Object.fromEntries(Object.entries(members).map(([model, m]) => [model, m.value])),
  };
}
