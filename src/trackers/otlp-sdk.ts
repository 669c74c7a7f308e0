import { createHash } from 'node:crypto';
import type * as Api from '@opentelemetry/api';
import type * as Core from '@opentelemetry/core';
import type * as Exporter from '@opentelemetry/exporter-trace-otlp-proto';
import type * as Resources from '@opentelemetry/resources';
import type * as Base from '@opentelemetry/sdk-trace-base';

/** The OpenTelemetry packages the tracker imports when it first starts, so a run without it never loads them. */
export const OTLP_PACKAGES = [
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-proto',
] as const;

/** The OpenTelemetry modules, once imported. */
export interface Sdk {
  api: typeof Api;
  core: typeof Core;
  resources: typeof Resources;
  base: typeof Base;
  exporter: typeof Exporter;
}

/** Imports the OpenTelemetry packages; a run that sends no traces never loads them. */
export async function loadSdk(): Promise<Sdk> {
  const [api, core, resources, base, exporter] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  return { api, core, resources, base, exporter };
}

/** A text's SHA-256 in hex: the source of stable trace and span ids. */
export const hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** Ids derived from the run, experiment and case, so a resend carries the same trace and span ids. */
export class StableIds implements Base.IdGenerator {
  traceId = '';
  spanId = '';
  generateTraceId = () => this.traceId;
  generateSpanId = () => this.spanId;
}

/** Keeps ended spans until the tracker exports them itself, so an export failure reaches it instead of a global handler. */
export class Collect implements Base.SpanProcessor {
  ended: Base.ReadableSpan[] = [];
  onStart(): void {}
  onEnd(span: Base.ReadableSpan): void {
    this.ended.push(span);
  }
  forceFlush = () => Promise.resolve();
  shutdown = () => Promise.resolve();
}

/** Exports spans and waits for the answer, rejecting with the exporter's reason when the backend refuses them. */
export function exportSpans(
  sdk: Sdk,
  exporter: Exporter.OTLPTraceExporter,
  spans: Base.ReadableSpan[],
  url: string,
): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    exporter.export(spans, (result) =>
      result.code === sdk.core.ExportResultCode.SUCCESS
        ? resolve()
        : reject(new Error(`sending traces to ${url} failed: ${result.error?.message ?? 'no reason given'}`)),
    ),
  );
}
