import { Buffer } from 'node:buffer';
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Payload, PayloadCodec } from '@temporalio/common';

/** A payload as the Web UI sends it to a codec server: proto3 JSON, every byte string in base64. */
interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

/** Who a codec server answers: the UI's origins (for CORS) and the bearer token it asks for, if any. */
export interface CodecServerOptions {
  origins: readonly string[];
  token?: string;
}

const fromJson = (p: JsonPayload): Payload => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')]),
  ),
  data: Buffer.from(p.data ?? '', 'base64'),
});

const toJson = (p: Payload): JsonPayload => ({
  metadata: Object.fromEntries(
    Object.entries(p.metadata ?? {}).map(([k, v]) => [
      k,
      Buffer.from(v ?? new Uint8Array()).toString('base64'),
    ]),
  ),
  data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
});

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header ?? '');
  const wanted = Buffer.from(`Bearer ${token}`);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Serves `codec` as Temporal's codec server samples do, for the Web UI: `POST …/encode` and `…/decode` take and give
 * `{"payloads": [...]}`; CORS for `origins` (credentials allowed, as the UI may send them); with a token, a request
 * without `Authorization: Bearer <token>` is refused (401). A preflight needs no token: browsers never send one.
 */
export function codecServer(codec: PayloadCodec, options: CodecServerOptions): Server {
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const origin = request.headers.origin;
    if (origin && options.origins.includes(origin)) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Access-Control-Allow-Credentials', 'true');
      response.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, X-Namespace');
      response.setHeader('Access-Control-Allow-Methods', 'POST, OPTIONS');
      response.setHeader('Vary', 'Origin');
    }
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    const action = /\/(encode|decode)$/.exec(new URL(request.url ?? '/', 'http://codec').pathname)?.[1];
    if (request.method !== 'POST' || !action) return reply(404, { error: 'POST /encode or /decode' });
    if (options.token && !bearerMatches(request.headers.authorization, options.token))
      return reply(401, { error: 'a bearer token is needed' });
    let payloads: Payload[];
    try {
      const body = JSON.parse(await bodyOf(request)) as { payloads?: JsonPayload[] };
      payloads = (body.payloads ?? []).map(fromJson);
    } catch {
      return reply(400, { error: 'the body is not {"payloads": [...]}' });
    }
    try {
      const out = action === 'encode' ? await codec.encode(payloads) : await codec.decode(payloads);
      reply(200, { payloads: out.map(toJson) });
    } catch (error) {
      // A missing key or a tampered payload: said in words, never the ciphertext.
      reply(400, { error: error instanceof Error ? error.message : String(error) });
    }
  };
  return createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
}
