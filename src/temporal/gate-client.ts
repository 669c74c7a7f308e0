import type { Client } from '@temporalio/client';
import type { GateClient } from '../../activities/gated-model.ts';
import { RENEW_MS } from '../core/concurrency.ts';
import { closedUntil, type GateState, type SlotAnswer, type SlotRequest } from '../core/coordinator.ts';
import { gateWorkflowId } from '../core/run-input.ts';
import { again } from './again.ts';
import {
  closeVendorSignal,
  endCallSignal,
  gateQuery,
  outcomesUpdate,
  renewCallsSignal,
  slotUpdate,
  successesSignal,
} from '../../workflows/messages.ts';

/** How long a worker trusts its last look at the gate for calls that no rate limit counts. */
const VIEW_MS = 500;
/**
 * How old a look may be and still let a call start while a fresh one is read: calls in waves (a fixed latency, a
 * batch of cases) would otherwise all wait for the gate's answer at the start of every wave, one round trip each.
 */
const STALE_MS = 1500;

/**
 * The answer for a call no limit counts, from a recent view of the gate and the windows this worker closed itself:
 * stopped, paused, its vendor's window, or now.
 */
function answerFromView(
  view: GateState,
  closedHere: Record<string, number>,
  request: SlotRequest,
  now: number,
): SlotAnswer {
  if (view.state === 'aborted') return { stopped: true };
  if (view.state === 'paused') return { paused: true };
  const windows = Math.max(closedUntil(view, request), closedUntil({ closedUntil: closedHere }, request));
  return { startAt: Math.max(now, windows) };
}

/**
 * The gate reached through Temporal. A call that a rate limit counts asks for its slot with an update (exact across
 * workers); any other call only needs the gate's pause, abort and vendor windows, read with a query shared by the
 * worker's calls for half a second, which keeps the gate's history small on big runs. While calls hold places in
 * flight, one signal per run every RENEW_MS names them all, so the gate lets only a dead worker's places lapse.
 */
export function temporalGate(client: Client): GateClient {
  const held = new Map<string, Set<string>>();
  let renewer: NodeJS.Timeout | undefined;
  const renew = () => {
    for (const [runId, holders] of held) {
      const gate = client.workflow.getHandle(gateWorkflowId(runId));
      // A missed renewal is made good by the next; a gate that closed needs none.
      gate.signal(renewCallsSignal, [...holders]).catch(() => undefined);
    }
  };
  const hold = (runId: string, holder: string) => {
    const holders = held.get(runId) ?? new Set<string>();
    held.set(runId, holders.add(holder));
    // unref: a worker with calls in flight is kept alive by them, never by this timer.
    renewer ??= setInterval(renew, RENEW_MS).unref();
  };
  const release = (runId: string, holder: string) => {
    const holders = held.get(runId);
    holders?.delete(holder);
    if (holders?.size === 0) held.delete(runId);
    if (held.size === 0 && renewer) {
      clearInterval(renewer);
      renewer = undefined;
    }
  };
  const views = new Map<string, { at: number; view: Promise<GateState>; next?: Promise<GateState> }>();
  // A view read just after this worker closed a window may not show it yet (the gate applies the signal in its next
  // task): the worker keeps what it closed, so its own next calls wait, whatever the view says.
  const closedHere = new Map<string, Record<string, number>>();
  const read = (runId: string) => {
    const at = Date.now();
    const fresh = again(() => client.workflow.getHandle(gateWorkflowId(runId)).query(gateQuery));
    fresh.then(
      // Unless a report or a window of this worker's dropped the cached look meanwhile: this one may predate it.
      () => {
        if (views.get(runId)?.next === fresh) views.set(runId, { at, view: fresh });
      },
      () => {
        if (views.get(runId)?.next === fresh) views.delete(runId);
      },
    );
    return fresh;
  };
  const view = (runId: string) => {
    const cached = views.get(runId);
    const age = cached ? Date.now() - cached.at : Infinity;
    if (cached && age < VIEW_MS) return cached.view;
    if (cached && age < STALE_MS) {
      // The call goes by the last look; the next call finds a fresh one.
      if (!cached.next) cached.next = read(runId);
      return cached.view;
    }
    const fresh = read(runId);
    views.set(runId, { at: Date.now(), view: fresh, next: fresh });
    return fresh;
  };
  return {
    async slot(runId, request) {
      if (request.keys.length === 0)
        return answerFromView(await view(runId), closedHere.get(runId) ?? {}, request, Date.now());
      const answer = await again(() =>
        client.workflow.getHandle(gateWorkflowId(runId)).executeUpdate(slotUpdate, { args: [request] }),
      );
      if ('leased' in answer && request.holder !== undefined) hold(runId, request.holder);
      return answer;
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
    async endCall(runId, holder) {
      release(runId, holder);
      await again(() => client.workflow.getHandle(gateWorkflowId(runId)).signal(endCallSignal, holder));
    },
    async closeVendor(runId, vendor, seconds) {
      views.delete(runId);
      const windows = closedHere.get(runId) ?? {};
      windows[vendor] = Math.max(windows[vendor] ?? 0, Date.now() + seconds * 1000);
      closedHere.set(runId, windows);
      await again(() =>
        client.workflow.getHandle(gateWorkflowId(runId)).signal(closeVendorSignal, vendor, seconds),
      );
    },
  };
}
