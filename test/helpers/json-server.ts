import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a test server received, body parsed. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/**
 * One scripted answer: a status, headers and a JSON body; or `drop` to close the socket without answering. `delayMs`
 * holds it back that long, as a slow model's reply is.
 */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  drop?: boolean;
  delayMs?: number;
}

/**
 * A real HTTP server on 127.0.0.1 that parses each JSON request, asks `respond` for the answer and writes it: what
 * the tests' provider, fault and tracker servers share. `path` has the `/v1` prefix removed.
 */
export class JsonServer {
  private server?: Server;

  constructor(private readonly respond: (request: Received, arrivedAt: number) => Answer) {}

  /** Starts listening on `port` (a free one by default); returns `http://127.0.0.1:PORT`. */
  async listen(port = 0): Promise<string> {
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const arrivedAt = Date.now();
        const request: Received = {
          method: req.method ?? '',
          path: (req.url ?? '').replace(/^\/v1/, ''),
          headers: req.headers,
          body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        };
        const answer = this.respond(request, arrivedAt);
        const write = () => {
          if (answer.drop) return void req.socket.destroy();
          res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
          res.end(JSON.stringify(answer.body ?? {}));
        };
        if (answer.delayMs) setTimeout(write, answer.delayMs);
        else write();
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Closes the server and every connection it holds. */
  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
