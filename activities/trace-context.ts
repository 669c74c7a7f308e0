import { AsyncLocalStorage } from 'node:async_hooks';
import type * as Api from '@opentelemetry/api';

/** The engine's trace around the current activity: the API, the worker's tracer, and the span to hang children on. */
export interface ActiveTrace {
  api: typeof Api;
  tracer: Api.Tracer;
  context: Api.Context;
}

/**
 * The trace of the activity running now, set by the worker's activity interceptor when engine tracing is on. Its own
 * storage, not OpenTelemetry's global context manager, so the user's global setup stays untouched.
 */
export const activeTrace = new AsyncLocalStorage<ActiveTrace>();

/** Runs `work` inside a child span of the current activity's trace, or plainly when the run is not traced. */
export async function traced<T>(
  name: string,
  attributes: Record<string, string | number | boolean>,
  work: (span?: Api.Span) => Promise<T>,
): Promise<T> {
  const active = activeTrace.getStore();
  if (!active) return work();
  const span = active.tracer.startSpan(name, { attributes }, active.context);
  try {
    const inner = { ...active, context: active.api.trace.setSpan(active.context, span) };
    return await activeTrace.run(inner, () => work(span));
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: active.api.SpanStatusCode.ERROR, message: String(error) });
    throw error;
  } finally {
    span.end();
  }
}
