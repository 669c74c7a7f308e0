import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { completionRequestOf } from '../src/api/conversation.ts';
import type {
  CompletionRequest,
  Model,
  ModelRequest,
  Provider,
  ProviderResponse,
  Usage,
} from '../src/api/types.ts';
import type { Failure, GateState, SlotAnswer, SlotRequest } from '../src/core/coordinator.ts';
import { contenderSettings, type Contender } from '../src/core/matrix.ts';
import type { MissingKey } from '../src/core/missing-key.ts';
import { addUsage } from '../src/core/results.ts';
import {
  classifyFailure,
  connectionFailureOf,
  defaultBackoff,
  type FailureClass,
} from '../src/core/retry.ts';
import { traced } from './trace-context.ts';

/** How activities reach the run's gate (a workflow) from a worker. */
export interface GateClient {
  slot(runId: string, request: SlotRequest): Promise<SlotAnswer>;
  closeVendor(runId: string, vendor: string, seconds: number): Promise<void>;
  /** Tells the gate this worker cannot call a contender (no key, no such provider), for `seconds`: status says so. */
  cannotCall(runId: string, missing: MissingKey, seconds: number): Promise<void>;
  /** Gives back the places in flight a call held (`leased` in its slot's answer). */
  endCall(runId: string, holder: string): Promise<void>;
  /** Tells the gate how cases ended, in finishing order (`null` for a success); answers the run's state after them. */
  report(runId: string, outcomes: (Failure | null)[]): Promise<GateState['state']>;
  /**
   * The gate's state for a reader that makes no call (the live view): the look this worker's calls share when it is
   * recent, else one read that they then share too. Unlike a call's look, it does not keep the look renewed.
   */
  state?(runId: string): Promise<GateState>;
  /**
   * Whether the run is paused or stopped, from the look calls share (a reply found in the cache asks for no slot, but
   * a paused run advances no case): nothing when it runs.
   */
  control?(runId: string): Promise<'paused' | 'stopped' | undefined>;
}

/** What one case's calls add up to: usage, latency of calls that worked, time waited, and whether the gate said stop. */
export interface CallLog {
  usage: Usage;
  latency: number | null;
  waited: number;
  control?: 'paused' | 'stopped';
  /** A call's reply was stopped by the token limit. */
  truncated?: boolean;
  /** The key the provider needs and this worker lacks: the call was not made, its case waits for another worker. */
  missingKey?: string;
}

/**
 * Thrown by a provider call that failed, with the verdict: retry (after a delay) or an error outcome; `failedAt` is
 * when the provider answered, the moment its delay counts from.
 */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly verdict: FailureClass & { delay?: number },
    readonly failedAt: number,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/** Thrown by a call the gate would not start (the run is paused or stopped), or this worker cannot make (no key). */
export class RunControl extends Error {}

/** The vendor a call belongs to: a routed id's first segment under its provider, else the provider itself. */
export function vendorOf(provider: Provider, id: string): string {
  return provider.prefix === '' ? `${provider.name}/${id.split('/')[0]}` : provider.name;
}

/**
 * Whether a failure speaks for the whole vendor: a 429, an answer that says how long to wait, or a connection refused
 * or reset before any answer (the endpoint is down or restarting, for every model on it).
 */
function vendorWide(cause: unknown): boolean {
  const fields = (cause ?? {}) as { status?: unknown; retryAfter?: unknown };
  if (fields.status === 429 || typeof fields.retryAfter === 'number') return true;
  return fields.status === undefined && connectionFailureOf(cause) !== undefined;
}

/** The HTTP status and Retry-After seconds a provider's error carries (ProviderError, or any error shaped like it). */
function verdictOf(cause: unknown): FailureClass {
  const fields = (cause ?? {}) as { status?: unknown; retryAfter?: unknown; retryable?: unknown };
  if (fields.retryable === false) return { retry: false, reason: 'the provider cannot serve it' };
  const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return classifyFailure(number(fields.status), number(fields.retryAfter));
}

/**
 * The contender's model as the adapter sees it; every call first asks the run's gate, and a retryable failure closes
 * its vendor; `attempt` counts the case's tries (1-2-4-8 s). A provider's key missing from `env` makes no call: the
 * case goes back to wait, as for a pause, for a worker that has it.
 */
export function gatedModel(
  contender: Contender,
  provider: Provider,
  gate: GateClient,
  runId: string,
  log: CallLog,
  attempt: number,
  env: NodeJS.ProcessEnv = process.env,
): Model {
  const settings = contenderSettings(contender);
  const vendor = vendorOf(provider, contender.id);
  const model = `${contender.provider}:${contender.id}`;
  /** Waits for the call's turn; returns the holder of its places in flight when it took any, to give them back. */
  const waitForSlot = async (): Promise<string | undefined> => {
    const request = { keys: contender.limits, vendor, model, holder: randomUUID() };
    const asked = Date.now();
    let answer = await gate.slot(runId, request);
    // Queued behind other calls in flight (max_concurrency): the gate holds each ask a few seconds, then we ask again.
    while ('queued' in answer) answer = await gate.slot(runId, request);
    if ('paused' in answer || 'stopped' in answer) {
      log.control = 'paused' in answer ? 'paused' : 'stopped';
      throw new RunControl(`the run is ${log.control}`);
    }
    // Time queued for a place in flight is the queue's, not the model's: waited, left out of latency.
    if (answer.leased) log.waited += (Date.now() - asked) / 1000;
    const wait = answer.startAt - Date.now();
    if (wait > 0) {
      // Through the activity's context, so that cancelling it ends the wait.
      await Context.current().sleep(wait);
      log.waited += wait / 1000;
    }
    return answer.leased ? request.holder : undefined;
  };
  return {
    id: contender.id,
    name: contender.model,
    provider: contender.provider,
    ...settings,
    complete: (asked: ModelRequest): Promise<ProviderResponse> =>
      // A traced run shows each call, and the gate's wait before it, under its pool's activity.
      traced(`call ${contender.id}`, { provider: contender.provider, model: contender.id }, async (span) => {
        // Before the gate: a call this worker cannot make takes no slot and no place in flight.
        const missing = provider.envKeys.find((key) => !env[key]);
        if (missing) {
          log.control = 'paused';
          log.missingKey = missing;
          throw new RunControl(`${missing} is not set in this worker's environment`);
        }
        const holder = await traced('gate', { vendor, limits: contender.limits.join(' ') }, waitForSlot);
        let response: ProviderResponse;
        try {
          response = await call(completionRequestOf(asked));
        } finally {
          // The place in flight goes back as soon as the call ends, before its back-off or the adapter's parsing.
          if (holder) await gate.endCall(runId, holder);
        }
        span?.setAttributes({
          input_tokens: response.usage.inputTokens ?? undefined,
          output_tokens: response.usage.outputTokens ?? undefined,
        });
        return response;
      }),
  };
  async function call(request: CompletionRequest): Promise<ProviderResponse> {
    const started = performance.now();
    let response: ProviderResponse;
    try {
      response = await provider.complete({ id: contender.id, name: contender.model, ...settings }, request);
    } catch (error) {
      const failedAt = Date.now();
      const verdict = verdictOf(error);
      const delay = verdict.retry ? (verdict.delay ?? defaultBackoff(attempt)) : undefined;
      // A 429, any answer saying how long to wait, or a connection refused or reset speaks for the vendor: it
      // closes for every call. A 5xx or a timeout says only that this model is unwell: its neighbours go on.
      if (delay !== undefined) await gate.closeVendor(runId, vendorWide(error) ? vendor : model, delay);
      const text = `${contender.provider} ${contender.id}: ${error instanceof Error ? error.message : String(error)}`;
      throw new TransportError(text, { ...verdict, ...(delay !== undefined ? { delay } : {}) }, failedAt, {
        cause: error,
      });
    }
    log.latency = (log.latency ?? 0) + (performance.now() - started) / 1000;
    log.usage = addUsage(log.usage, response.usage);
    if (response.truncated) log.truncated = true;
    return response;
  }
}
