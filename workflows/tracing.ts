import {
  ContinueAsNew,
  defaultPayloadConverter,
  proxySinks,
  uuid4,
  workflowInfo,
  type Payload,
  type Sinks,
  type WorkflowInterceptors,
} from '@temporalio/workflow';

/** The header that carries the W3C trace context from the CLI through workflows to activities. */
export const TRACE_HEADER = 'traceparent';

/** A workflow's span as the sandbox hands it to the worker, which exports it: ids, times and a few attributes. */
export interface EngineSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  startMs: number;
  endMs: number;
  attributes: Record<string, string>;
  error?: string;
}

/** The sink the worker provides for workflow spans; it is not called on replay, so a span is exported once. */
export interface EngineTracingSinks extends Sinks {
  engineTracing: { span(span: EngineSpan): void };
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

type Headers = Record<string, Payload>;

function parentOf(headers: Headers): { traceId: string; spanId: string } | undefined {
  const payload = headers[TRACE_HEADER];
  if (!payload) return undefined;
  const match = TRACEPARENT.exec(String(defaultPayloadConverter.fromPayload(payload)));
  return match ? { traceId: match[1]!, spanId: match[2]! } : undefined;
}

const header = (traceId: string, spanId: string) =>
  defaultPayloadConverter.toPayload(`00-${traceId}-${spanId}-01`);

/**
 * Traces a workflow that was started with a trace context (an untraced run calls nothing, so its history replays as
 * before): one span per workflow run, the parent of the activities and children it schedules.
 */
export function interceptors(): WorkflowInterceptors {
  let span: { traceId: string; spanId: string; parent: string } | undefined;
  const { engineTracing } = proxySinks<EngineTracingSinks>();
  const withHeader = <T extends { headers: Headers }>(input: T, spanId?: string): T =>
    span
      ? {
          ...input,
          headers: { ...input.headers, [TRACE_HEADER]: header(span.traceId, spanId ?? span.spanId) },
        }
      : input;
  return {
    inbound: [
      {
        async execute(input, next) {
          const parent = parentOf(input.headers);
          if (!parent) return next(input);
          // uuid4 is deterministic in the sandbox: a replay finds the same span id.
          span = {
            traceId: parent.traceId,
            spanId: uuid4().replace(/-/g, '').slice(0, 16),
            parent: parent.spanId,
          };
          const info = workflowInfo();
          const startMs = info.runStartTime.getTime();
          let error: string | undefined;
          try {
            return await next(input);
          } catch (e) {
            if (!(e instanceof ContinueAsNew)) error = e instanceof Error ? e.message : String(e);
            throw e;
          } finally {
            engineTracing.span({
              name: `workflow ${info.workflowType}`,
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parent,
              startMs,
              endMs: Date.now(),
              attributes: { 'temporal.workflow_id': info.workflowId, 'temporal.run_id': info.runId },
              ...(error ? { error } : {}),
            });
          }
        },
      },
    ],
    outbound: [
      {
        scheduleActivity: (input, next) => next(withHeader(input)),
        scheduleLocalActivity: (input, next) => next(withHeader(input)),
        startChildWorkflowExecution: (input, next) => next(withHeader(input)),
        // The next run of the chain hangs under the same parent, not under this run.
        continueAsNew: (input, next) => next(withHeader(input, span?.parent)),
      },
    ],
  };
}
