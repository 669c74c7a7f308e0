import type * as Api from '@opentelemetry/api';
import type * as Exporter from '@opentelemetry/exporter-trace-otlp-proto';
import type * as Base from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import type { Summary } from '../core/aggregate.ts';
import { caseAttributes, experimentAttributes, summaryAttributes } from './otlp-attributes.ts';
import { missingOtlpKey, otlpTarget, type OtlpTarget } from './otlp-target.ts';
import { Collect, exportSpans, hex, loadSdk, OTLP_PACKAGES, StableIds, type Sdk } from './otlp-sdk.ts';
import { parseSection } from './section.ts';
import type { CaseRecord, ExperimentInfo, Tracker, TrackerContext, TrackerDefinition } from './types.ts';

/** Spans sent per request: an experiment of thousands of cases goes in several. */
const BATCH = 256;

interface Open {
  provider: Base.BasicTracerProvider;
  exporter: Exporter.OTLPTraceExporter;
  tracer: Api.Tracer;
  span: Api.Span;
  parent: Api.Context;
  ids: StableIds;
  collect: Collect;
}

const SectionSchema = z.strictObject({ include_replies: z.boolean().optional() });

class OtlpTracker implements Tracker {
  private sdk?: Promise<Sdk>;
  private readonly open = new Map<string, Open>();

  constructor(
    readonly name: string,
    private readonly target: OtlpTarget,
    private readonly includeReplies: boolean,
  ) {}

  enabled(): boolean {
    return true;
  }

  async start(e: ExperimentInfo): Promise<void> {
    const sdk = await (this.sdk ??= loadSdk());
    const ids = new StableIds();
    const collect = new Collect();
    // Its own provider, never registered: the global tracer provider (Temporal's interceptors, the user's) stays put.
    const provider = new sdk.base.BasicTracerProvider({
      resource: new sdk.resources.Resource({ 'service.name': 'llm-evals' }),
      mergeResourceWithDefaults: false,
      sampler: new sdk.base.AlwaysOnSampler(),
      idGenerator: ids,
      spanProcessors: [collect],
    });
    const exporter = new sdk.exporter.OTLPTraceExporter({
      url: this.target.url,
      headers: this.target.headers,
    });
    const tracer = provider.getTracer('llm-evals');
    const key = hex(`${e.runId}/${e.experimentId}`);
    ids.traceId = key.slice(0, 32);
    ids.spanId = key.slice(32, 48);
    const span = tracer.startSpan(
      `experiment ${e.experimentId}`,
      { startTime: new Date(e.startedAt), attributes: experimentAttributes(e) },
      sdk.api.ROOT_CONTEXT,
    );
    const parent = sdk.api.trace.setSpan(sdk.api.ROOT_CONTEXT, span);
    this.open.set(e.experimentId, { provider, exporter, tracer, span, parent, ids, collect });
  }

  async record(r: CaseRecord): Promise<void> {
    const open = this.opened(r.experimentId);
    const { api } = await this.sdk!;
    open.ids.spanId = hex(r.idempotencyId).slice(0, 16);
    const span = open.tracer.startSpan(
      `case ${r.caseKey}`,
      {
        startTime: new Date(r.startedAt),
        attributes: caseAttributes(r, { includeReplies: this.includeReplies }),
      },
      open.parent,
    );
    if (r.error !== undefined) {
      span.recordException({ name: r.status, message: r.error }, new Date(r.finishedAt));
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: r.error });
    }
    span.end(new Date(r.finishedAt));
    if (open.collect.ended.length < BATCH) return;
    try {
      await this.flush(open);
    } catch (error) {
      // No finish follows a failed record: let go of the exporter's sockets now.
      await this.close(r.experimentId, open);
      throw error;
    }
  }

  async finish(e: ExperimentInfo, summary: Summary): Promise<{ url?: string }> {
    const open = this.opened(e.experimentId);
    try {
      open.span.setAttributes(summaryAttributes(summary));
      open.span.end(new Date(e.finishedAt));
      await this.flush(open);
    } finally {
      await this.close(e.experimentId, open);
    }
    return {};
  }

  private async close(experimentId: string, open: Open): Promise<void> {
    this.open.delete(experimentId);
    await open.provider.shutdown();
    await open.exporter.shutdown();
  }

  private opened(experimentId: string): Open {
    const open = this.open.get(experimentId);
    if (!open) throw new Error(`${this.name}: experiment ${experimentId} was not started`);
    return open;
  }

  private async flush(open: Open): Promise<void> {
    const spans = open.collect.ended.splice(0);
    if (spans.length > 0) await exportSpans(await this.sdk!, open.exporter, spans, this.target.url);
  }
}

/** The logfire tracker: OTLP traces to Logfire, or to any backend the `OTEL_EXPORTER_OTLP_*` variables name. */
export const logfireTracker: TrackerDefinition = {
  name: 'logfire',
  envKey: 'LOGFIRE_TOKEN',
  packages: OTLP_PACKAGES,
  missingKey: missingOtlpKey,
  create(context: TrackerContext): Tracker {
    const section = parseSection('logfire', SectionSchema, context);
    const target = otlpTarget(context.env);
    context.log.info(`logfire: ${target.reason}`);
    return new OtlpTracker('logfire', target, section.include_replies ?? false);
  },
};
