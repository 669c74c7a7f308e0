import type * as Api from '@opentelemetry/api';
import type * as Base from '@opentelemetry/sdk-trace-base';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { Context } from '@temporalio/activity';
import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInboundCallsInterceptor, InjectedSinks } from '@temporalio/worker';
import { activeTrace } from '../../activities/trace-context.ts';
import { loadSdk, type Sdk } from '../trackers/otlp-sdk.ts';
import { otlpTarget } from '../trackers/otlp-target.ts';
import { TRACE_HEADER, type EngineSpan, type EngineTracingSinks } from '../../workflows/tracing.ts';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;

/** Ids a span must have (a workflow's, chosen in the sandbox), else random ones. */
class ChosenIds implements Base.IdGenerator {
  next?: { traceId: string; spanId: string };
  constructor(private readonly random: Base.IdGenerator) {}
  generateTraceId = () => this.next?.traceId ?? this.random.generateTraceId();
  generateSpanId = () => this.next?.spanId ?? this.random.generateSpanId();
}

/** The traces of the engine itself (the CLI's command, workflows, activities, provider calls), over OTLP. */
export class EngineTracing {
  /** The trace context new workflows start under: the command's span. */
  private parent?: string;

  constructor(
    private readonly sdk: Sdk,
    private readonly provider: Base.BasicTracerProvider,
    private readonly ids: ChosenIds,
    readonly tracer: Api.Tracer,
  ) {}

  /** Starts the command's span; workflows started from now on hang under it. */
  startCommand(name: string, attributes: Record<string, string> = {}): Api.Span {
    const span = this.tracer.startSpan(name, { attributes, root: true });
    const { traceId, spanId } = span.spanContext();
    this.parent = `00-${traceId}-${spanId}-01`;
    return span;
  }

  /** The client interceptor that hands the command's trace context to the workflows it starts. */
  clientInterceptor(): WorkflowClientInterceptor {
    const withHeader = <T extends { headers: Record<string, unknown> }>(input: T): T =>
      this.parent
        ? {
            ...input,
            headers: { ...input.headers, [TRACE_HEADER]: defaultPayloadConverter.toPayload(this.parent) },
          }
        : input;
    return {
      start: (input, next) => next(withHeader(input)),
      startWithDetails: (input, next) => next(withHeader(input)),
    };
  }

  /** The activity interceptor: a span per activity under its workflow's, the parent of its provider calls. */
  activityInterceptor(): ActivityInboundCallsInterceptor {
    const { api } = this.sdk;
    return {
      execute: async (input, next) => {
        const payload = input.headers[TRACE_HEADER];
        const match = payload ? TRACEPARENT.exec(String(defaultPayloadConverter.fromPayload(payload))) : null;
        if (!match) return next(input);
        const parent = api.trace.setSpanContext(api.ROOT_CONTEXT, {
          traceId: match[1]!,
          spanId: match[2]!,
          traceFlags: api.TraceFlags.SAMPLED,
          isRemote: true,
        });
        const name = `activity ${Context.current().info.activityType}`;
        const span = this.tracer.startSpan(name, {}, parent);
        const context = api.trace.setSpan(parent, span);
        try {
          return await activeTrace.run({ api, tracer: this.tracer, context }, () => next(input));
        } catch (error) {
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: String(error) });
          throw error;
        } finally {
          span.end();
        }
      },
    };
  }

  /** The sink through which workflows hand over their spans, exported here with the ids they chose. */
  sinks(): InjectedSinks<EngineTracingSinks> {
    return {
      engineTracing: {
        span: { fn: (_info, span: EngineSpan) => this.record(span), callDuringReplay: false },
      },
    };
  }

  private record(s: EngineSpan): void {
    const { api } = this.sdk;
    const parent = api.trace.setSpanContext(api.ROOT_CONTEXT, {
      traceId: s.traceId,
      spanId: s.parentSpanId,
      traceFlags: api.TraceFlags.SAMPLED,
      isRemote: true,
    });
    this.ids.next = { traceId: s.traceId, spanId: s.spanId };
    const span = this.tracer.startSpan(s.name, { startTime: s.startMs, attributes: s.attributes }, parent);
    this.ids.next = undefined;
    if (s.error) span.setStatus({ code: api.SpanStatusCode.ERROR, message: s.error });
    span.end(s.endMs);
  }

  /** Sends what is left and closes the exporter; the command calls it before it exits. */
  async shutdown(): Promise<void> {
    await this.provider.shutdown();
  }
}

let opened: Promise<EngineTracing | undefined> | undefined;

/** Whether the engine is traced: an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT` or its traces variant). */
export function isEngineTraced(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/**
 * The process's engine tracing when an OTLP endpoint is set (`OTEL_EXPORTER_OTLP_ENDPOINT` or its traces variant),
 * else none. Its own tracer provider: the global one stays the user's.
 */
export function engineTracing(env: NodeJS.ProcessEnv): Promise<EngineTracing | undefined> {
  if (!isEngineTraced(env)) return Promise.resolve(undefined);
  return (opened ??= (async () => {
    const sdk = await loadSdk();
    const target = otlpTarget(env);
    const exporter = new sdk.exporter.OTLPTraceExporter({ url: target.url, headers: target.headers });
    const ids = new ChosenIds(new sdk.base.RandomIdGenerator());
    const provider = new sdk.base.BasicTracerProvider({
      resource: new sdk.resources.Resource({ 'service.name': 'llm-evals' }),
      idGenerator: ids,
      spanProcessors: [new sdk.base.BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000 })],
    });
    return new EngineTracing(sdk, provider, ids, provider.getTracer('llm-evals-engine'));
  })());
}

/**
 * Runs a command inside its span when engine tracing is on, so the workflows it starts join its trace; sends the
 * spans left before the command returns.
 */
export async function traceCommand<T>(
  env: NodeJS.ProcessEnv,
  name: string,
  work: (span?: Api.Span) => Promise<T>,
): Promise<T> {
  const tracing = await engineTracing(env);
  if (!tracing) return work();
  const span = tracing.startCommand(name, {});
  try {
    return await work(span);
  } catch (error) {
    span.setStatus({ code: 2, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
    await tracing.shutdown();
  }
}
