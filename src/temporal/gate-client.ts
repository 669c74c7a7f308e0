import type { Client } from '@temporalio/client';
import type { GateClient } from '../../activities/gated-model.ts';
import { closedUntil, type GateState, type SlotAnswer, type SlotRequest } from '../core/coordinator.ts';
import { gateWorkflowId } from '../core/run-input.ts';
import { again } from './again.ts';
import {
  closeVendorSignal,
  gateQuery,
  outcomesUpdate,
  slotUpdate,
  successesSignal,
} from '../../workflows/messages.ts';

/** How long a worker trusts its last look at the gate for calls that no rate limit counts. */
const VIEW_MS = 500;

/** The answer for a call no limit counts, from a recent view of the gate: stopped, paused, its vendor's window, or now. */
function answerFromView(view: GateState, request: SlotRequest, now: number): SlotAnswer {
  if (view.state === 'aborted') return { stopped: true };
  if (view.state === 'paused') return { paused: true };
  return { startAt: Math.max(now, closedUntil(view, request)) };
}

/**
 * The gate reached through Temporal. A call that a rate limit counts asks for its slot with an update (exact across
 * workers); any other call only needs the gate's pause, abort and vendor windows, read with a query shared by the
 * worker's calls for half a second, which keeps the gate's history small on big runs.
 */
export function temporalGate(client: Client): GateClient {
  const views = new Map<string, { at: number; view: Promise<GateState> }>();
  const view = (runId: string) => {
    const cached = views.get(runId);
    if (cached && Date.now() - cached.at < VIEW_MS) return cached.view;
    const fresh = again(() => client.workflow.getHandle(gateWorkflowId(runId)).query(gateQuery));
    views.set(runId, { at: Date.now(), view: fresh });
    fresh.catch(() => views.delete(runId));
    return fresh;
  };
  return {
    async slot(runId, request) {
      if (request.keys.length === 0) return answerFromView(await view(runId), request, Date.now());
      return again(() =>
        client.workflow.getHandle(gateWorkflowId(runId)).executeUpdate(slotUpdate, { args: [request] }),
      );
    },
    async report(runId, outcomes) {
      views.delete(runId);
      const handle = client.workflow.getHandle(gateWorkflowId(runId));
      // Successes alone change nothing the pools act on (each call reads the gate's state before it starts): a
      // signal, which needs no workflow task to answer it.
      if (outcomes.every((o) => o === null)) {
        await again(() => handle.signal(successesSignal, outcomes.length));
        return 'running';
      }
      return again(() =>
        client.workflow.getHandle(gateWorkflowId(runId)).executeUpdate(outcomesUpdate, { args: [outcomes] }),
      );
    },
    async closeVendor(runId, vendor, seconds) {
      views.delete(runId);
      await again(() =>
        client.workflow.getHandle(gateWorkflowId(runId)).signal(closeVendorSignal, vendor, seconds),
      );
    },
  };
}
