import {
  allHandlersFinished,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  defineUpdate,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  answerPause,
  closeVendor,
  grantSlot,
  recordOutcome,
  type Failure,
  type GateState,
  type SlotAnswer,
  type SlotRequest,
} from '../src/core/coordinator.ts';

/** Asks the gate when a call may start (S7, S8), or whether the run is paused or stopped (S10, S11). */
export const slotUpdate = defineUpdate<SlotAnswer, [SlotRequest]>('slot');
/** Tells the gate how a case ended: `null` for success, else the failure. */
export const outcomeSignal = defineSignal<[Failure | null]>('outcome');
/** Closes a vendor for every call of the run for some seconds, after a retryable failure (S8). */
export const closeVendorSignal = defineSignal<[vendor: string, seconds: number]>('closeVendor');
/** Answers a pause: true goes on, false stops the run. */
export const answerPauseSignal = defineSignal<[goOn: boolean]>('answerPause');
/** Sent by the run when it is over, so the gate can close. */
export const finishSignal = defineSignal('finish');
/** The gate's state: limits, waits, errors, pause or abort. */
export const gateQuery = defineQuery<GateState>('gate');

/** Messages one gate run handles before it continues as new, far below the 2,000 updates a workflow run may take. */
const MESSAGES_PER_RUN = 1000;

/** The run's gate: the one place that hands out call slots and counts errors, for every worker of the run. */
export async function runGate(gate: GateState): Promise<GateState> {
  let messages = 0;
  let finished = false;
  setHandler(slotUpdate, (request) => {
    messages++;
    return grantSlot(gate, request, Date.now());
  });
  setHandler(outcomeSignal, (failure) => {
    messages++;
    recordOutcome(gate, failure ?? undefined);
  });
  setHandler(closeVendorSignal, (vendor, seconds) => closeVendor(gate, vendor, Date.now() + seconds * 1000));
  setHandler(answerPauseSignal, (goOn) => answerPause(gate, goOn));
  setHandler(finishSignal, () => {
    finished = true;
  });
  setHandler(gateQuery, () => gate);
  await condition(() => finished || messages >= MESSAGES_PER_RUN || workflowInfo().continueAsNewSuggested);
  await condition(allHandlersFinished);
  if (finished) return gate;
  return continueAsNew<typeof runGate>(gate);
}
