import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';

/** The part of OTLP's trace protocol (opentelemetry-proto, trace/v1) a receiver needs to read what the SDK sends. */
const OTLP_TRACE_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; fixed32 flags = 16;
  string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; uint32 dropped_attributes_count = 10; repeated Event events = 11;
  uint32 dropped_events_count = 12; Status status = 15;
}
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`;

const Request = protobuf.parse(OTLP_TRACE_PROTO).root.lookupType('otlp.ExportTraceServiceRequest');

type Attributes = Record<string, string | number | boolean>;

/** A span as the receiver decoded it: ids in hex, times as ISO strings, attributes as plain values. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  start: string;
  end: string;
  attributes: Attributes;
  events: { name: string; time: string; attributes: Attributes }[];
  status: { code: number; message?: string };
}

interface RawKeyValue {
  key: string;
  value?: { stringValue?: string; boolValue?: boolean; intValue?: string; doubleValue?: number };
}

const hex = (base64: string | undefined) => Buffer.from(base64 ?? '', 'base64').toString('hex');
const iso = (nanos: string) => new Date(Number(BigInt(nanos) / 1_000_000n)).toISOString();

function attributes(list: RawKeyValue[] | undefined): Attributes {
  const out: Attributes = {};
  for (const { key, value = {} } of list ?? []) {
    const v =
      value.stringValue ??
      value.boolValue ??
      (value.intValue === undefined ? undefined : Number(value.intValue)) ??
      value.doubleValue;
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** Decodes an OTLP/HTTP protobuf trace export into spans. */
export function decodeSpans(body: Buffer): ReceivedSpan[] {
  const message = Request.toObject(Request.decode(body), { longs: String, bytes: String, defaults: false });
  type RawSpan = {
    traceId?: string;
    spanId?: string;
    parentSpanId?: string;
    name: string;
    startTimeUnixNano: string;
    endTimeUnixNano: string;
    attributes?: RawKeyValue[];
    events?: { name: string; timeUnixNano: string; attributes?: RawKeyValue[] }[];
    status?: { code?: number; message?: string };
  };
  const resourceSpans = (message.resourceSpans ?? []) as { scopeSpans?: { spans?: RawSpan[] }[] }[];
  return resourceSpans.flatMap((rs) =>
    (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: hex(s.traceId),
        spanId: hex(s.spanId),
        parentSpanId: hex(s.parentSpanId),
        name: s.name,
        start: iso(s.startTimeUnixNano),
        end: iso(s.endTimeUnixNano),
        attributes: attributes(s.attributes),
        events: (s.events ?? []).map((e) => ({
          name: e.name,
          time: iso(e.timeUnixNano),
          attributes: attributes(e.attributes),
        })),
        status: { code: s.status?.code ?? 0, ...(s.status?.message ? { message: s.status.message } : {}) },
      })),
    ),
  );
}

/** One export request as it arrived. */
export interface ReceivedExport {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as received (after gzip, if any), to search for what must never be sent. */
  body: Buffer;
  spans: ReceivedSpan[];
}

/** A real OTLP/HTTP receiver on 127.0.0.1 that decodes every protobuf trace export; `status` sets what it answers. */
export class OtlpReceiver {
  readonly exports: ReceivedExport[] = [];
  status = 200;
  private server?: Server;

  /** Starts listening on a free port and returns its base URL (`http://127.0.0.1:PORT`). */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        if (this.status === 200) {
          this.exports.push({ path: req.url ?? '', headers: req.headers, body, spans: decodeSpans(body) });
        }
        res.writeHead(this.status, { 'content-type': 'application/x-protobuf' });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Every span received, in arrival order. */
  spans(): ReceivedSpan[] {
    return this.exports.flatMap((e) => e.spans);
  }
}

/** The spans as an indented tree (parents before children, siblings by start time), for reading and snapshots. */
export function printTree(spans: readonly ReceivedSpan[], show: (s: ReceivedSpan) => string): string {
  const lines: string[] = [];
  const walk = (parent: string, depth: number) => {
    const children = spans
      .filter((s) => s.parentSpanId === parent)
      .sort((a, b) => a.start.localeCompare(b.start));
    for (const s of children) {
      lines.push(`${'  '.repeat(depth)}${s.name} ${show(s)}`);
      walk(s.spanId, depth + 1);
    }
  };
  walk('', 0);
  return lines.join('\n');
}
