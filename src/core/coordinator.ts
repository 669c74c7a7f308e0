import type { RateLimit } from './matrix.ts';

/** How many failures in a row pause a run that has no `abort_after` (S11). */
export const PAUSE_STREAK = 100;

/** A run-wide gate's state: rate-limit slots, vendor back-off windows, error counts, pause and abort (S7, S8, S10, S11). */
export interface GateState {
  limits: Record<string, RateLimit>;
  /** Per limit key: calls granted so far, and the earliest start of the next call after the burst (epoch ms). */
  slots: Record<string, { granted: number; next: number }>;
  /** Per vendor (or model) key: closed until this time (epoch ms). */
  closedUntil: Record<string, number>;
  abortAfter?: { total: number; percent?: number };
  finished: number;
  errors: number;
  streak: number;
  /** The streak at which the run pauses next; going on arms another PAUSE_STREAK. */
  pauseAt: number;
  state: 'running' | 'paused' | 'aborted';
  /** The last failures, newest last, for the pause message and `status`. */
  recent: Failure[];
  /** Seconds callers were told to wait, per limit key, for `status`. */
  waited: Record<string, number>;
}

/** One failed case as the gate remembers it. */
export interface Failure {
  contender: string;
  dataset: string;
  caseKey: string;
  error: string;
}

/** A call asking to start: the limit keys it waits on, its vendor, and its model (closed alone by a 5xx). */
export interface SlotRequest {
  keys: string[];
  vendor: string;
  model?: string;
}

/** The gate's answer: start at a time, come back later (paused), or stop (aborted). */
export type SlotAnswer = { startAt: number } | { paused: true } | { stopped: true };

const RECENT = 20;

/** A fresh gate for a run. */
export function newGate(
  limits: Record<string, RateLimit>,
  abortAfter?: { total: number; percent?: number },
): GateState {
  return {
    limits,
    slots: {},
    closedUntil: {},
    ...(abortAfter ? { abortAfter } : {}),
    finished: 0,
    errors: 0,
    streak: 0,
    pauseAt: PAUSE_STREAK,
    state: 'running',
    recent: [],
    waited: {},
  };
}

/** Grants a call its start time: after every matching limit's slot and its vendor's back-off window (mutates `gate`). */
export function grantSlot(gate: GateState, request: SlotRequest, now: number): SlotAnswer {
  if (gate.state === 'aborted') return { stopped: true };
  if (gate.state === 'paused') return { paused: true };
  let startAt = Math.max(now, closedUntil(gate, request));
  const keys = request.keys.filter((key) => gate.limits[key]);
  for (const key of keys) {
    // The spacing after the burst starts one interval after the run's first call on this key.
    const slot = (gate.slots[key] ??= { granted: 0, next: now + 60_000 / gate.limits[key]!.perMinute });
    if (slot.granted >= gate.limits[key]!.burst) startAt = Math.max(startAt, slot.next);
  }
  for (const key of keys) {
    const limit = gate.limits[key]!;
    const slot = gate.slots[key]!;
    slot.granted++;
    if (slot.granted > limit.burst) slot.next = Math.max(slot.next, startAt) + 60_000 / limit.perMinute;
    gate.waited[key] = (gate.waited[key] ?? 0) + (startAt - now) / 1000;
  }
  return { startAt };
}

/** When the call's vendor and model are open again (epoch ms): the later of their back-off windows. */
export function closedUntil(
  gate: Pick<GateState, 'closedUntil'>,
  request: Pick<SlotRequest, 'vendor' | 'model'>,
): number {
  const model = request.model === undefined ? 0 : (gate.closedUntil[request.model] ?? 0);
  return Math.max(gate.closedUntil[request.vendor] ?? 0, model);
}

/** Closes a vendor (or one model) for every call of the run until `until` (epoch ms), keeping the later window (mutates `gate`). */
export function closeVendor(gate: GateState, vendor: string, until: number): void {
  gate.closedUntil[vendor] = Math.max(gate.closedUntil[vendor] ?? 0, until);
}

/** Whether `abort_after` holds: at least `total` errors and, when set, at least `percent` of finished cases failed (S10). */
export function shouldAbort(gate: Pick<GateState, 'abortAfter' | 'errors' | 'finished'>): boolean {
  const rule = gate.abortAfter;
  if (!rule || gate.errors < rule.total) return false;
  return rule.percent === undefined || (gate.errors / Math.max(1, gate.finished)) * 100 >= rule.percent;
}

/** Counts a finished case; errors may abort the run (S10) or, without `abort_after`, pause it after a streak (S11). */
export function recordOutcome(gate: GateState, failure: Failure | undefined): void {
  gate.finished++;
  if (!failure) {
    gate.streak = 0;
    return;
  }
  gate.errors++;
  gate.streak++;
  gate.recent = [...gate.recent, failure].slice(-RECENT);
  if (gate.state !== 'running') return;
  if (gate.abortAfter) {
    if (shouldAbort(gate)) gate.state = 'aborted';
  } else if (gate.streak >= gate.pauseAt) {
    gate.state = 'paused';
  }
}

/** Answers a pause: going on arms another streak; stopping aborts (mutates `gate`). */
export function answerPause(gate: GateState, goOn: boolean): void {
  if (gate.state !== 'paused') return;
  if (goOn) {
    gate.state = 'running';
    gate.pauseAt = gate.streak + PAUSE_STREAK;
  } else {
    gate.state = 'aborted';
  }
}

/** What a pause shows: the distinct error messages and which contenders, datasets and cases the streak touched. */
export function describeFailures(recent: readonly Failure[], all: { contenders: number; datasets: number }) {
  const distinct = <K extends keyof Failure>(key: K) => [...new Set(recent.map((f) => f[key]))];
  const contenders = distinct('contender');
  const datasets = distinct('dataset');
  return {
    messages: distinct('error'),
    contenders: contenders.length >= all.contenders ? 'all of them' : contenders,
    datasets: datasets.length >= all.datasets ? 'all of them' : datasets,
    cases: distinct('caseKey'),
  };
}
