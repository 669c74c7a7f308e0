import {
  allHandlersFinished,
  condition,
  continueAsNew,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  answerPause,
  closeVendor,
  grantSlot,
  recordOutcome,
  type GateState,
} from '../src/core/coordinator.ts';
import {
  answerPauseSignal,
  closeVendorSignal,
  finishSignal,
  gateQuery,
  outcomesUpdate,
  slotUpdate,
  successesSignal,
} from './messages.ts';

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
