import { readFileSync } from 'node:fs';
import {
  connect,
  constants,
  createSecureServer,
  type ClientHttp2Session,
  type Http2Session,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type ServerHttp2Session,
  type ServerHttp2Stream,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';

// `temporal server start-dev` speaks plaintext gRPC only. This puts a real TLS terminator in front of it, as a load
// balancer stands in front of a cluster: mutual TLS with the test's CA, HTTP/2 (ALPN h2) on both sides, every gRPC
// stream forwarded with its headers, data and trailers. It records what each connection showed, so a test can say
// who connected, with which certificate and which `authorization`.

/** One gRPC call as the proxy saw it. */
export interface SeenCall {
  /** The method, e.g. `/temporal.api.workflowservice.v1.WorkflowService/StartWorkflowExecution`. */
  path: string;
  authorization: string | undefined;
  userAgent: string | undefined;
}

/** One TLS connection the proxy accepted, and the calls it carried. */
export interface SeenConnection {
  /** The subject CN of the client's certificate, or undefined when it presented none. */
  clientCert: string | undefined;
  calls: SeenCall[];
}

/** A running TLS proxy: its address, what it saw, and how to stop it. */
export interface TlsProxy {
  /** `127.0.0.1:<port>`, for TEMPORAL_ADDRESS. */
  address: string;
  connections: SeenConnection[];
  /** Why TLS handshakes were refused (a client without a certificate our CA signed, a client that distrusts us). */
  refused: string[];
  close(): Promise<void>;
}

/** The certificate files (paths) of the proxy's server side, and the CA its clients' certificates must chain to. */
export interface TlsProxyOptions {
  upstream: string;
  cert: string;
  key: string;
  ca: string;
}

/** A response for a call the proxy could not forward: gRPC's trailers-only form, UNAVAILABLE. */
function unavailable(message: string): OutgoingHttpHeaders {
  return {
    ':status': 200,
    'content-type': 'application/grpc',
    'grpc-status': '14',
    'grpc-message': encodeURIComponent(message),
  };
}

/** The request's headers for the plaintext upstream: its own authority and scheme, the rest as the client sent it. */
function upstreamHeaders(headers: IncomingHttpHeaders, authority: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = value;
  out[':authority'] = authority;
  out[':scheme'] = 'http';
  return out;
}

/** Forwards one gRPC stream to `upstream`: request data, then response headers, data and trailers, resets both ways. */
function forward(
  stream: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
  upstream: ClientHttp2Session,
  authority: string,
) {
  let trailers: IncomingHttpHeaders | undefined;
  const request = upstream.request(upstreamHeaders(headers, authority));
  stream.pipe(request);
  request.on('response', (response) => {
    if (stream.destroyed) return;
    // Trailers-only (an error before any message): grpc-status comes in the headers and the stream ends there.
    if (response['grpc-status'] !== undefined) {
      stream.respond(response, { endStream: true });
      return;
    }
    stream.respond(response, { waitForTrailers: true });
    request.pipe(stream);
  });
  request.on('trailers', (received: IncomingHttpHeaders) => {
    trailers = received;
  });
  stream.on('wantTrailers', () =>
    stream.sendTrailers(trailers ?? { 'grpc-status': '14', 'grpc-message': 'upstream sent no trailers' }),
  );
  request.on('error', (error: Error) => {
    if (stream.destroyed) return;
    if (!stream.headersSent) stream.respond(unavailable(error.message), { endStream: true });
    else stream.close(constants.NGHTTP2_INTERNAL_ERROR);
  });
  request.on('close', () => {
    if (stream.destroyed || request.rstCode === constants.NGHTTP2_NO_ERROR) return;
    if (!stream.headersSent)
      stream.respond(unavailable(`upstream reset the stream (${request.rstCode})`), { endStream: true });
    else stream.close(request.rstCode);
  });
  stream.on('error', () => undefined);
  stream.on('close', () => {
    if (!request.closed) request.close(constants.NGHTTP2_CANCEL);
  });
}

/** Starts a mutual-TLS HTTP/2 proxy on 127.0.0.1 in front of the plaintext gRPC server at `upstream`. */
export async function startTlsProxy(options: TlsProxyOptions): Promise<TlsProxy> {
  const connections: SeenConnection[] = [];
  const refused: string[] = [];
  const open = new Set<ServerHttp2Session | ClientHttp2Session>();
  const seen = new WeakMap<Http2Session, { record: SeenConnection; upstream: ClientHttp2Session }>();
  const server = createSecureServer({
    cert: readFileSync(options.cert),
    key: readFileSync(options.key),
    ca: readFileSync(options.ca),
    requestCert: true,
    rejectUnauthorized: true,
    allowHTTP1: false,
  });
  server.on('tlsClientError', (error: Error) => refused.push(error.message));
  server.on('session', (session: ServerHttp2Session) => {
    const peer = (session.socket as TLSSocket).getPeerCertificate();
    const cn = peer.subject?.CN;
    const record: SeenConnection = { clientCert: Array.isArray(cn) ? cn.join(',') : cn, calls: [] };
    connections.push(record);
    const upstream = connect(`http://${options.upstream}`);
    upstream.on('error', () => undefined);
    session.on('error', () => undefined);
    session.on('close', () => upstream.close());
    for (const one of [session, upstream]) {
      open.add(one);
      one.on('close', () => open.delete(one));
    }
    seen.set(session, { record, upstream });
  });
  server.on('stream', (stream, headers) => {
    const link = seen.get(stream.session!);
    if (!link) {
      stream.respond(unavailable('no upstream for this connection'), { endStream: true });
      return;
    }
    const auth = headers.authorization;
    link.record.calls.push({
      path: String(headers[':path']),
      authorization: Array.isArray(auth) ? auth.join(',') : auth,
      userAgent: headers['user-agent'],
    });
    forward(stream, headers, link.upstream, options.upstream);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    connections,
    refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Sessions the clients keep open would hold `close` forever.
        for (const session of open) session.destroy();
      }),
  };
}
