import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  answerPause,
  closeVendor,
  endCall,
  grantSlot,
  hasRoom,
  queueWaitMs,
  recordOutcome,
  renewCalls,
  type GateState,
} from '../src/core/coordinator.ts';
import { noteCannotCall } from '../src/core/missing-key.ts';
import {
  answerPauseSignal,
  cannotCallSignal,
  closeVendorSignal,
  endCallSignal,
  finishSignal,
  gateQuery,
  renewCallsSignal,
  outcomesUpdate,
  slotUpdate,
  successesSignal,
} from './messages.ts';

/**
 * The patch under which the gate keeps a worker's word that it cannot call a contender (before, no gate had the
 * signal: workers told it as a vendor window under a name no call waits on). Asked when the word arrives, so only
 * gates told one record the marker.
 */
const CANNOT_CALL_NOTES = 'gate-cannot-call-notes';

/** Messages one gate run handles before it continues as new, far below the 2,000 updates a workflow run may take. */
const MESSAGES_PER_RUN = 1000;

/**
 * How long a call queued for a place in flight waits inside one `slot` update before it is told to ask again: short
 * enough that the gate can drain its handlers and continue as new, long enough that asking costs little history.
 */
const QUEUE_WAIT_MS = 5000;

/** The run's gate: the one place that hands out call slots and counts errors, for every worker of the run. */
export async function runGate(gate: GateState): Promise<GateState> {
  let messages = 0;
  let finished = false;
  let draining = false;
  setHandler(slotUpdate, async (request) => {
    messages++;
    let answer = grantSlot(gate, request, Date.now());
    // Queued for a place in flight (max_concurrency): wait here until a call ends, so the place is taken at once.
    if ('queued' in answer && !draining) {
      // Wakes when a lease nobody renewed lapses too: no message marks a dead worker's call.
      await condition(
        () => gate.state !== 'running' || hasRoom(gate, request.keys, Date.now()),
        queueWaitMs(gate, request.keys, Date.now(), QUEUE_WAIT_MS),
      );
      answer = grantSlot(gate, request, Date.now());
    }
    return answer;
  });
  setHandler(endCallSignal, (holder) => endCall(gate, holder));
  setHandler(renewCallsSignal, (holders) => {
    messages++;
    renewCalls(gate, holders, Date.now());
  });
  setHandler(successesSignal, (count) => {
    messages++;
    for (let i = 0; i < count; i++) recordOutcome(gate, undefined);
  });
  setHandler(outcomesUpdate, (outcomes) => {
    messages++;
    for (const failure of outcomes) recordOutcome(gate, failure ?? undefined);
    return gate.state;
  });
  setHandler(closeVendorSignal, (vendor, seconds) => closeVendor(gate, vendor, Date.now() + seconds * 1000));
  setHandler(cannotCallSignal, (missing, seconds) => {
    if (!patched(CANNOT_CALL_NOTES)) return;
    messages++;
    noteCannotCall(gate, missing, Date.now(), seconds);
  });
  setHandler(answerPauseSignal, (goOn) => answerPause(gate, goOn));
  setHandler(finishSignal, () => {
    finished = true;
  });
  setHandler(gateQuery, () => gate);
  await condition(() => finished || messages >= MESSAGES_PER_RUN || workflowInfo().continueAsNewSuggested);
  draining = true;
  await condition(allHandlersFinished);
  if (finished) return gate;
  return continueAsNew<typeof runGate>(gate);
}
