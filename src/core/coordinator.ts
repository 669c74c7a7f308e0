import {
  countedKeys,
  giveBackLeases,
  nextLapse,
  noteQueued,
  renewLeases,
  takeLeases,
  takeQueuedWait,
  type InFlight,
} from './concurrency.ts';
import type { RateLimit } from './matrix.ts';
import type { CannotCall } from './missing-key.ts';

/** How many failures in a row pause a run that has no `abort_after`. */
export const PAUSE_STREAK = 100;

/**
 * How many replies the scorer may throw on before the run pauses, `abort_after` or not: a throwing scorer is a bug in
 * the suite's code, and every call after it is paid for a case that ends as an error.
 */
export const SCORER_PAUSE = 3;

/** A run-wide gate's state: rate-limit slots, vendor back-off windows, error counts, pause and abort. */
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
  /** Seconds calls waited, per limit key: for their rate-limit slot, or queued for a place in flight; for `status`. */
  waited: Record<string, number>;
  /** Calls in flight per `max_concurrency` key (absent from gates started before it existed). */
  inFlight?: InFlight;
  /** Workers' words that they cannot call a contender (no key, no such provider): `status` says why cases wait. */
  cannotCall?: CannotCall;
  /** Replies the scorer threw on, and the count at which that pauses the run next (absent: none yet; SCORER_PAUSE). */
  scorerThrows?: number;
  scorerPauseAt?: number;
}

/** One failed case as the gate remembers it. */
export interface Failure {
  contender: string;
  dataset: string;
  caseKey: string;
  error: string;
  /** The scorer threw on the reply: the suite's bug, not the model's. */
  scorer?: true;
}

/** A call asking to start: the limit keys it waits on, its vendor, and its model (closed alone by a 5xx). */
export interface SlotRequest {
  keys: string[];
  vendor: string;
  model?: string;
  /** Names the call for its concurrency leases, given back by `endCall`; needed when a key counts calls in flight. */
  holder?: string;
}

/**
 * The gate's answer: start at a time (`leased`: holding places in flight, to give back with `endCall`), wait for a
 * place in flight and ask again (queued), come back later (paused), or stop (aborted).
 */
export type SlotAnswer =
  { startAt: number; leased?: true } | { queued: true } | { paused: true } | { stopped: true };

const RECENT = 20;

/** A fresh gate for a run. */
export function newGate(
  limits: Record<string, RateLimit>,
  abortAfter?: { total: number; percent?: number },
  inFlight?: Record<string, number>,
): GateState {
  return {
    limits,
    ...(inFlight && Object.keys(inFlight).length ? { inFlight: { max: inFlight, leases: {} } } : {}),
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
  // A place in flight first: a queued call must not take a rate-limit slot it cannot use yet.
  const leased =
    request.holder !== undefined && gate.inFlight && countedKeys(gate.inFlight, request.keys).length > 0;
  if (leased) {
    if (!takeLeases(gate.inFlight!, request.keys, request.holder!, now)) {
      noteQueued(gate.inFlight!, request.holder!, now);
      return { queued: true };
    }
    // Time queued for a place is waited on the keys that count places, as a rate limit's wait is on its key.
    const queued = takeQueuedWait(gate.inFlight!, request.holder!, now);
    if (queued > 0) {
      for (const key of countedKeys(gate.inFlight!, request.keys)) {
        gate.waited[key] = (gate.waited[key] ?? 0) + queued / 1000;
      }
    }
  }
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
  return leased ? { startAt, leased: true } : { startAt };
}

/** Whether a call queued on `keys` may find a place in flight now: what a waiting `slot` update waits for. */
export function hasRoom(gate: GateState, keys: readonly string[], now: number): boolean {
  if (!gate.inFlight) return true;
  const probe = '\u0000probe';
  const room = takeLeases(gate.inFlight, keys, probe, now);
  giveBackLeases(gate.inFlight, probe);
  return room;
}

/** The calls still running on a worker keep their places in flight (mutates `gate`): see RENEW_MS. */
export function renewCalls(gate: GateState, holders: readonly string[], now: number): void {
  if (gate.inFlight) renewLeases(gate.inFlight, holders, now);
}

/**
 * How long a queued ask waits for a place before it is answered again: at most `max`, and only until the first lease on
 * its keys lapses (a dead worker's call frees its place then, with no message to wake the ask).
 */
export function queueWaitMs(gate: GateState, keys: readonly string[], now: number, max: number): number {
  const lapse = gate.inFlight ? nextLapse(gate.inFlight, keys) : undefined;
  return lapse === undefined ? max : Math.max(1, Math.min(max, lapse - now + 1));
}

/** A call that held places in flight ended: its places go to the calls queued (mutates `gate`). */
export function endCall(gate: GateState, holder: string): void {
  if (gate.inFlight) giveBackLeases(gate.inFlight, holder);
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

/** Whether `abort_after` holds: at least `total` errors and, when set, at least `percent` of finished cases failed. */
export function shouldAbort(gate: Pick<GateState, 'abortAfter' | 'errors' | 'finished'>): boolean {
  const rule = gate.abortAfter;
  if (!rule || gate.errors < rule.total) return false;
  return rule.percent === undefined || (gate.errors / Math.max(1, gate.finished)) * 100 >= rule.percent;
}

/**
 * Counts a finished case; errors may abort the run or, without `abort_after`, pause it after a streak; a few replies
 * the scorer threw on pause it either way.
 */
export function recordOutcome(gate: GateState, failure: Failure | undefined): void {
  gate.finished++;
  if (!failure) {
    gate.streak = 0;
    return;
  }
  gate.errors++;
  gate.streak++;
  gate.recent = [...gate.recent, failure].slice(-RECENT);
  if (failure.scorer) gate.scorerThrows = (gate.scorerThrows ?? 0) + 1;
  if (gate.state !== 'running') return;
  if (gate.abortAfter && shouldAbort(gate)) gate.state = 'aborted';
  else if ((gate.scorerThrows ?? 0) >= (gate.scorerPauseAt ?? SCORER_PAUSE)) gate.state = 'paused';
  else if (!gate.abortAfter && gate.streak >= gate.pauseAt) gate.state = 'paused';
}

/** Answers a pause: going on arms another streak; stopping aborts (mutates `gate`). */
export function answerPause(gate: GateState, goOn: boolean): void {
  if (gate.state !== 'paused') return;
  if (goOn) {
    gate.state = 'running';
    gate.pauseAt = gate.streak + PAUSE_STREAK;
    if (gate.scorerThrows !== undefined) gate.scorerPauseAt = gate.scorerThrows + PAUSE_STREAK;
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
