import type { Failure } from './coordinator.ts';
import type { ExchangeAnswer, PoolEnd, Settled } from './experiment-state.ts';
import { outcomeOf } from './outcomes.ts';
import { deliveryStalled, gateReportDue, nextMove } from './pool-pacing.ts';

/** A case leased to a pool: its index in the experiment, its key and the hash the plan saw. */
export type LeasedCase = ExchangeAnswer['cases'][number];

/** Why a pool ended: nothing left to hand out, the gate paused the run, or the experiment told it to end. */
export type PoolEnded = 'drained' | 'paused' | PoolEnd;

/**
 * What a pool of calls knows: its leased cases, what it finished and has not reported (to its experiment, to the
 * run's gate), its calls and exchange under way, and the signals that stop it from starting calls.
 */
export interface PoolState {
  parallelism: number;
  contender: string;
  dataset: string;
  buffer: LeasedCase[];
  outbox: Settled[];
  /** When the oldest unsent case finished (ms), and the unsent results' size. */
  oldest: number | null;
  bytes: number;
  /** A failure or a retry waits in the outbox: it goes at once. */
  urgent: boolean;
  /** What the exchange under way carries, how many cases it asked for, and since when (null: none under way). */
  sending: Settled[];
  asked: number;
  exchangingSince: number | null;
  exhausted: boolean;
  running: number;
  /** When recent cases finished (ms), for the pace. */
  finished: number[];
  ended: PoolEnded;
  /** Outcomes the gate has not heard of, the failures among them, since when; a report under way holds new calls after a failure. */
  gate: {
    outcomes: (Failure | null)[];
    failures: number;
    since: number | null;
    reporting: boolean;
    holding: boolean;
  };
  /** The earlier attempt of this pool on this worker is quiet: until then this one does nothing. */
  ready: boolean;
  cancelled: boolean;
  /** The cancel came from the worker shutting down without draining: nothing can be reported any more. */
  shutDown: boolean;
  draining: boolean;
  handedOver: boolean;
  /** It told its worker it is quiet (draining, nothing left to report). */
  quiet: boolean;
  /** It ended (returned, was cancelled, or failed): later events change nothing. */
  over: boolean;
  /**
   * Why this worker cannot run the experiment's cases (it lacks a case, a key or a provider): it handed them back, and
   * ends by declining, so that Temporal gives its next attempt to any worker, perhaps one that can.
   */
  declined: string | null;
}

/** What happens to a pool: the news its driver turns Temporal's, the provider's and the worker's doings into. */
export type PoolNews =
  | { ready: true }
  | { leased: ExchangeAnswer }
  | { exchangeFailed: Error }
  | { called: Settled; declined?: string }
  | { callFailed: Error }
  | { gate: 'running' | 'paused' | 'aborted' }
  | { gateFailed: Error }
  | { cancelled: { shutDown: boolean } }
  | { draining: true }
  | { handedOver: true }
  | { tick: true };

/** A piece of news and when it came (ms). */
export type PoolEvent = PoolNews & { now: number };

/** What the driver does for the pool: start a call, exchange, tell the gate, say it is quiet, end, or wait. */
export type PoolEffect =
  | { call: LeasedCase }
  | { exchange: { settled: Settled[]; want: number } }
  | { tellGate: (Failure | null)[] }
  | { quiet: true }
  | { end: PoolEnded }
  | { decline: string }
  | { cancel: string }
  | { fail: Error }
  | { wakeAt: number };

/** A fresh pool with its first lease (none for a retried attempt, which does not trust it), `ready` once the attempt before it is quiet. */
export function newPool(input: {
  parallelism: number;
  contender: string;
  dataset: string;
  first: LeasedCase[];
  more: boolean;
  retried: boolean;
}): PoolState {
  return {
    parallelism: input.parallelism,
    contender: input.contender,
    dataset: input.dataset,
    // A retried pool does not trust the first lease: its experiment may have settled those cases since.
    buffer: input.retried ? [] : [...input.first],
    outbox: [],
    oldest: null,
    bytes: 0,
    urgent: false,
    sending: [],
    asked: 0,
    exchangingSince: null,
    exhausted: !input.retried && !input.more,
    running: 0,
    finished: [],
    ended: 'drained',
    gate: { outcomes: [], failures: 0, since: null, reporting: false, holding: false },
    ready: false,
    cancelled: false,
    shutDown: false,
    draining: false,
    handedOver: false,
    quiet: false,
    over: false,
    declined: null,
  };
}

function report(state: PoolState, item: Settled, now: number): void {
  state.outbox.push(item);
  state.oldest ??= now;
  if ('result' in item) {
    state.bytes += (item.result.reply?.length ?? 0) + 512;
    const outcome = outcomeOf(item.result, state.contender, state.dataset);
    state.gate.outcomes.push(outcome);
    state.gate.since ??= now;
    if (outcome) state.gate.failures++;
    if (outcome) state.urgent = true;
  } else state.urgent = true;
  state.finished.push(now);
}

/** The leased cases it will not call go back, and it asks for no more. */
function handBack(state: PoolState, reason: 'paused' | 'stopped', now: number): void {
  if (state.ended === 'drained') state.ended = reason;
  for (const [index] of state.buffer.splice(0)) report(state, { index, deferred: reason }, now);
  state.exhausted = true;
}

/** Takes one event in (mutates `state`). */
function apply(state: PoolState, event: PoolEvent): Error | undefined {
  const { now } = event;
  if ('ready' in event) state.ready = true;
  else if ('leased' in event) {
    const { cases, end } = event.leased;
    state.exchangingSince = null;
    state.sending = [];
    state.buffer.push(...cases);
    if (end) {
      state.ended = end;
      handBack(state, 'stopped', now);
    } else if (cases.length < state.asked) state.exhausted = true;
  } else if ('exchangeFailed' in event) {
    // Keep what was not delivered: it goes with the next exchange.
    state.outbox.unshift(...state.sending);
    state.sending = [];
    state.exchangingSince = null;
    return event.exchangeFailed;
  } else if ('called' in event) {
    state.running--;
    const item = event.called;
    report(state, item, now);
    if (event.declined !== undefined) state.declined ??= event.declined;
    if ('deferred' in item) handBack(state, item.deferred, now);
  } else if ('callFailed' in event) {
    state.running--;
    return event.callFailed;
  } else if ('gate' in event || 'gateFailed' in event) {
    state.gate.reporting = state.gate.holding = false;
    if ('gateFailed' in event) return event.gateFailed;
    if (event.gate !== 'running') handBack(state, event.gate === 'paused' ? 'paused' : 'stopped', now);
  } else if ('cancelled' in event) {
    state.cancelled = true;
    state.shutDown = event.cancelled.shutDown;
  } else if ('draining' in event) state.draining = true;
  else if ('handedOver' in event) state.handedOver = true;
  return undefined;
}

function tellGate(state: PoolState, effects: PoolEffect[]): void {
  const { gate } = state;
  gate.reporting = true;
  gate.holding = gate.failures > 0;
  effects.push({ tellGate: gate.outcomes.splice(0) });
  [gate.failures, gate.since] = [0, null];
}

function exchange(state: PoolState, want: number, now: number, effects: PoolEffect[]): void {
  state.sending = state.outbox.splice(0);
  state.asked = want;
  state.exchangingSince = now;
  [state.oldest, state.bytes, state.urgent] = [null, 0, false];
  effects.push({ exchange: { settled: state.sending, want } });
}

/** Whether it starts no call now: stopping, or held until the gate hears of a failure or the experiment answers. */
function holding(state: PoolState, now: number): boolean {
  const { gate } = state;
  const held = gate.holding || gate.failures > 0 || deliveryStalled(state.exchangingSince, now);
  return state.cancelled || state.draining || state.handedOver || held;
}

/**
 * A pool's one step (mutates `state`): takes an event in and says what to do. It ends only once all it finished is
 * reported to its experiment and the gate has heard of every outcome; stopping (cancelled, draining, handed over) it
 * starts no call, reports the calls in flight, and only then lets go.
 */
export function poolStep(state: PoolState, event: PoolEvent): PoolEffect[] {
  if (state.over) return [];
  const error = apply(state, event);
  if (error) {
    state.over = true;
    return [{ fail: error }];
  }
  // Quiet while its worker drains, it only waits to be cancelled.
  if (state.quiet) return state.cancelled ? over(state, { cancel: 'the worker is stopping' }) : [];
  const { now } = event;
  // The attempt before this one still runs here: it reports what it finished first, while the experiment still
  // takes its reports (this attempt's first exchange makes it refuse them). A cancel does not wait for it.
  if (!state.ready && !state.cancelled) return [];
  const exchanging = state.exchangingSince !== null;
  const quiet = state.running === 0 && (state.shutDown || (state.outbox.length === 0 && !exchanging));
  if ((state.draining || state.cancelled) && quiet) {
    // Stopping its worker: it must not end, or the experiment would start another pool on this very worker; it
    // waits to be cancelled, to run again elsewhere.
    if (state.cancelled) return over(state, { cancel: 'the worker is stopping' });
    state.quiet = true;
    return [{ quiet: true }];
  }
  // A later attempt of this pool took over here: Temporal has already given this one up, whatever it returns.
  if (state.handedOver && quiet) return over(state, { cancel: 'handed over to its next attempt' });
  const effects: PoolEffect[] = [];
  const { gate } = state;
  if (gateReportDue({ ...gate, count: gate.outcomes.length }, gate.reporting, now)) tellGate(state, effects);
  while (state.running < state.parallelism && state.buffer.length > 0 && !holding(state, now)) {
    state.running++;
    effects.push({ call: state.buffer.shift()! });
  }
  while (state.finished.length > 0 && state.finished[0]! < now - 1000) state.finished.shift();
  const move = nextMove({
    parallelism: state.parallelism,
    running: state.running,
    buffered: state.buffer.length,
    unsent: state.outbox.length,
    oldestUnsentAt: state.oldest,
    unsentBytes: state.bytes,
    urgent: state.urgent,
    exhausted: state.exhausted || state.cancelled || state.draining || state.handedOver,
    exchanging,
    rate: state.finished.length,
    now,
  });
  // Everything finished has been reported by exchange (nextMove ends a pool only then): Temporal may have given this
  // attempt up without its worker knowing, and would refuse what its result carried.
  if ('end' in move && gate.outcomes.length === 0 && !gate.reporting)
    return over(state, state.declined !== null ? { decline: state.declined } : { end: state.ended });
  if ('end' in move && !gate.reporting) tellGate(state, effects);
  if ('exchange' in move) exchange(state, move.want, now, effects);
  // Successes wait for the gate at most a second (a report under way wakes the pool when it is answered).
  const gateDue = gate.since === null || gate.reporting ? Infinity : gate.since + 1000;
  const wakes = ['at' in move ? move.at : Infinity, gateDue];
  const at = Math.min(...wakes);
  if (at < Infinity) effects.push({ wakeAt: at });
  return effects;
}

function over(state: PoolState, effect: PoolEffect): PoolEffect[] {
  state.over = true;
  return [effect];
}
