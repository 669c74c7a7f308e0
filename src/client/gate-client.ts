import type { Client } from '@temporalio/client';
import type { GateClient } from '../../activities/gated-model.ts';
import { RENEW_MS } from '../core/concurrency.ts';
import { closedUntil, type GateState, type SlotAnswer, type SlotRequest } from '../core/coordinator.ts';
import { gateWorkflowId } from '../core/run-input.ts';
import { again } from './again.ts';
import {
  cannotCallSignal,
  closeVendorSignal,
  endCallSignal,
  gateQuery,
  outcomesUpdate,
  renewCallsSignal,
  slotUpdate,
  successesSignal,
} from '../../workflows/messages.ts';

/** How long a worker's look at the gate serves its calls. */
export interface LookTimes {
  /** How old a look may be for a call that no rate limit counts to start by it. */
  viewMs: number;
  /**
   * While its calls run, a worker reads the gate again in the background once its look is this old, so that calls
   * starting together (a wave of fixed-latency calls, a batch of cases) find a recent look instead of all waiting
   * for one round trip; it checks every TICK_MS.
   */
  renewAtMs: number;
}
const LOOK_TIMES: LookTimes = { viewMs: 600, renewAtMs: 350 };
const TICK_MS = 100;
/** A run none of whose calls asked for a slot for this long is no longer read in the background. */
const IDLE_MS = 3000;

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

/** The gate through Temporal: a GateClient that also answers the gate's state to a reader that makes no call. */
export type TemporalGate = GateClient & Required<Pick<GateClient, 'state'>>;

/**
 * The gate reached through Temporal. A call that a rate limit counts asks for its slot with an update (exact across
 * workers); any other call only needs the gate's pause, abort and vendor windows, read with a query shared by the
 * worker's calls and renewed in the background while they run, which keeps the gate's history small on big runs.
 * A look is only good for `viewMs`: when the server stops answering, calls wait from then on, so few start whose
 * results could not be recorded. While calls hold places in flight, one signal per run every RENEW_MS names them
 * all, so the gate lets only a dead worker's places lapse.
 */
export function temporalGate(client: Client, look: LookTimes = LOOK_TIMES): TemporalGate {
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
  const lastUse = new Map<string, number>();
  let refresher: NodeJS.Timeout | undefined;
  const refresh = () => {
    const now = Date.now();
    for (const [runId, at] of lastUse) {
      if (now - at >= IDLE_MS) {
        lastUse.delete(runId);
        continue;
      }
      const cached = views.get(runId);
      if (cached && !cached.next && now - cached.at >= look.renewAtMs) cached.next = read(runId);
    }
    if (lastUse.size === 0 && refresher) {
      clearInterval(refresher);
      refresher = undefined;
    }
  };
  const used = (runId: string) => {
    lastUse.set(runId, Date.now());
    // unref: calls in flight keep a worker alive, never this timer.
    refresher ??= setInterval(refresh, TICK_MS).unref();
  };
  /** The look for `runId`; a call's look (`use`) also keeps it renewed while calls go on asking. */
  const view = (runId: string, use = true) => {
    if (use) used(runId);
    const cached = views.get(runId);
    if (cached && Date.now() - cached.at < look.viewMs) return cached.view;
    // Too old: every call waits for the one look being read.
    if (cached?.next) return cached.next;
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
      const handle = client.workflow.getHandle(gateWorkflowId(runId));
      // Successes alone change nothing the pools act on (each call reads the gate's state before it starts): a
      // signal, which needs no workflow task to answer it, and the look at the gate stays good.
      if (outcomes.every((o) => o === null)) {
        await again(() => handle.signal(successesSignal, outcomes.length));
        return 'running';
      }
      // A failure may pause or stop the run, or close a vendor: the next call reads the gate again.
      views.delete(runId);
      return again(() => handle.executeUpdate(outcomesUpdate, { args: [outcomes] }));
    },
    state: (runId) => view(runId, false),
    async control(runId) {
      const { state } = await view(runId);
      return state === 'paused' ? 'paused' : state === 'aborted' ? 'stopped' : undefined;
    },
    async endCall(runId, holder) {
      release(runId, holder);
      await again(() => client.workflow.getHandle(gateWorkflowId(runId)).signal(endCallSignal, holder));
    },
    async cannotCall(runId, missing, seconds) {
      await again(() =>
        client.workflow.getHandle(gateWorkflowId(runId)).signal(cannotCallSignal, missing, seconds),
      );
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
