import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Failure, GateState, SlotAnswer, SlotRequest } from '../src/core/coordinator.ts';
import type { ExchangeAnswer, ExchangeRequest, RetryReport } from '../src/core/experiment-state.ts';
import type { ExperimentProgress, RunProgress } from '../src/core/progress.ts';
import type { MissingKey } from '../src/core/missing-key.ts';

/** Asks the run workflow for its progress: each experiment's state and the counts of those that finished. */
export const runProgressQuery = defineQuery<RunProgress>('runProgress');
/** Asks an experiment workflow how many of its cases are done, case by case. */
export const experimentProgressQuery = defineQuery<ExperimentProgress>('experimentProgress');
/** A pool's exchange with its experiment: the cases it finished, for the next ones to run. */
export const exchangeUpdate = defineUpdate<ExchangeAnswer, [ExchangeRequest]>('exchange');
/** A retried case's word with its experiment: whether it still waits (before the call), its result (after). */
export const retryUpdate = defineUpdate<boolean, [RetryReport]>('retry');

/** Asks the gate when a call may start, or whether the run is paused or stopped. */
export const slotUpdate = defineUpdate<SlotAnswer, [SlotRequest]>('slot');
/** Tells the gate a call that held places in flight ended (`max_concurrency`): they go to the calls queued. */
export const endCallSignal = defineSignal<[holder: string]>('endCall');
/** Names a worker's calls still running, every RENEW_MS: their places in flight hold; a dead worker's lapse. */
export const renewCallsSignal = defineSignal<[holders: string[]]>('renewCalls');
/** Tells the gate of successes it need not answer: they only reset the failure streak and count towards percents. */
export const successesSignal = defineSignal<[count: number]>('successes');
/** Tells the gate how cases ended, in finishing order (`null` for a success); answers the run's state after them. */
export const outcomesUpdate = defineUpdate<GateState['state'], [(Failure | null)[]]>('outcomes');
/** Closes a vendor for every call of the run for some seconds, after a retryable failure. */
export const closeVendorSignal = defineSignal<[vendor: string, seconds: number]>('closeVendor');
/** A worker cannot call a contender (no key, no such provider) and sent its cases back: `status` says so a while. */
export const cannotCallSignal = defineSignal<[missing: MissingKey, seconds: number]>('cannotCall');
/** Answers a pause: true goes on, false stops the run. */
export const answerPauseSignal = defineSignal<[goOn: boolean]>('answerPause');
/** Sent by the run when it is over, so the gate can close. */
export const finishSignal = defineSignal('finish');
/** The gate's state: limits, waits, errors, pause or abort. */
export const gateQuery = defineQuery<GateState>('gate');
