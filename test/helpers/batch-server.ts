import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request line of an uploaded batch input file (OpenAI's JSONL shape). */
export interface BatchLine {
  custom_id: string;
  method: string;
  url: string;
  body: { model: string; messages: { role: string; content: string }[] } & Record<string, unknown>;
}

/** How the fake answers one request of a batch: a chat completion's text and usage, or an error status. */
export type BatchAnswer =
  { text: string; usage?: Record<string, number> } | { status: number; message: string };

/** A batch as the fake keeps it. */
export interface FakeBatch {
  id: string;
  input_file_id: string;
  endpoint: string;
  completion_window: string;
  metadata: Record<string, string>;
  created_at: number;
  status: string;
  output_file_id: string | null;
  error_file_id: string | null;
  request_counts: { total: number; completed: number; failed: number };
  /** The request lines, and when (ms) the batch is due to end. */
  lines: BatchLine[];
  dueAt: number;
}

/** How the fake behaves: its delay, its answer per request, and which batches expire with how many answered. */
export interface BatchServerOptions {
  /** Milliseconds from create to completed (default 300). */
  delayMs?: number;
  /** The answer to one request (default: echo the user text, 20 tokens in and 10 out). */
  answer?: (line: BatchLine) => BatchAnswer;
  /** For the n-th batch created (0-based): expire it at its due time with only this many requests answered. */
  expire?: (index: number) => number | undefined;
  /** Also answer chat completions one by one, as `answer` would in a batch (a run without `--batch`); else 599. */
  chat?: boolean;
}

/** The user message of a batch request line. */
export function lineUserText(line: BatchLine): string {
  return line.body.messages.find((m) => m.role === 'user')?.content ?? '';
}

const echo = (line: BatchLine): BatchAnswer => ({
  text: lineUserText(line),
  usage: { prompt_tokens: 20, completion_tokens: 10 },
});

/** A chat completion answering `line` with the answer's text and usage. */
function completionOf(line: BatchLine, answer: { text: string; usage?: Record<string, number> }, i: number) {
  return {
    id: `chatcmpl-${i}`,
    object: 'chat.completion',
    created: 0,
    model: line.body.model,
    choices: [{ index: 0, message: { role: 'assistant', content: answer.text }, finish_reason: 'stop' }],
    ...(answer.usage ? { usage: answer.usage } : {}),
  };
}

/** An error body in the shape OpenAI-compatible servers use. */
const errorOf = (answer: { status: number; message: string }) => ({
  error: { message: answer.message, code: answer.status },
});

/** The file part of a multipart/form-data body, or the body itself when it is not multipart. */
function fileOf(body: string, type: string | undefined): string {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type ?? '');
  if (!boundary) return body;
  const parts = body.split(`--${boundary[1] ?? boundary[2]}`);
  const part = parts.find((p) => /name="file"/.test(p)) ?? '';
  const start = part.indexOf('\r\n\r\n');
  return start < 0 ? '' : part.slice(start + 4).replace(/\r\n$/, '');
}

/**
 * A real HTTP server on 127.0.0.1 speaking OpenAI's Files and Batches APIs (`/v1/files`, `/v1/batches`), ending each
 * batch a set delay after it was created; it counts batches created and request lines received, and serves nothing
 * else (a chat completion is answered 599, so a test that calls directly fails loudly).
 */
export class BatchServer {
  readonly files = new Map<string, string>();
  readonly batches: FakeBatch[] = [];
  /** Every request line of every batch created, in order. */
  readonly requests: BatchLine[] = [];
  /** Chat completions asked directly (not through a batch): a batch run should make none. */
  chatCalls = 0;
  /** Looks at one batch (`GET /batches/ID`): a run's first look says its submit is in its history. */
  looks = 0;
  /** The Authorization headers seen, so a test can check the key went there and only there. */
  readonly authorizations = new Set<string>();
  private server?: Server;

  constructor(private readonly options: BatchServerOptions = {}) {}

  /** Starts listening on a free port; returns the base URL `http://127.0.0.1:PORT/v1`. */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', () => this.route(req, text, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }

  /** Closes the server and every connection it holds. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private route(req: IncomingMessage, text: string, res: ServerResponse): void {
    const send = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (req.headers.authorization) this.authorizations.add(req.headers.authorization);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/v1/, '');
    const method = req.method ?? 'GET';
    let match: RegExpExecArray | null;
    if (method === 'POST' && path === '/files') {
      const id = `file-${randomUUID()}`;
      this.files.set(id, fileOf(text, req.headers['content-type']));
      return send(200, { id, object: 'file', purpose: 'batch', bytes: text.length });
    }
    if (method === 'GET' && (match = /^\/files\/([^/]+)\/content$/.exec(path))) {
      const content = this.files.get(match[1]!);
      return content === undefined
        ? send(404, { error: { message: 'no such file' } })
        : send(200, content, 'text/plain');
    }
    if (method === 'POST' && path === '/batches')
      return send(200, this.view(this.create(JSON.parse(text) as never)));
    if (method === 'GET' && path === '/batches') {
      const data = [...this.batches].reverse().map((b) => this.view(this.advance(b)));
      return send(200, { object: 'list', data, has_more: false });
    }
    if ((match = /^\/batches\/([^/]+)(\/cancel)?$/.exec(path))) {
      const batch = this.batches.find((b) => b.id === match![1]);
      if (!batch) return send(404, { error: { message: 'no such batch' } });
      if (method === 'GET') this.looks++;
      if (method === 'POST' && match[2]) {
        this.advance(batch);
        if (!['completed', 'failed', 'expired'].includes(batch.status)) batch.status = 'cancelled';
      }
      return send(200, this.view(this.advance(batch)));
    }
    if (method === 'POST' && path === '/chat/completions') {
      this.chatCalls++;
      const line = {
        custom_id: 'chat',
        method,
        url: '/v1/chat/completions',
        body: JSON.parse(text) as never,
      };
      const answer = (this.options.answer ?? echo)(line);
      if (this.options.chat && !('status' in answer)) return send(200, completionOf(line, answer, 0));
      if (this.options.chat && 'status' in answer) return send(answer.status, errorOf(answer));
    }
    return send(599, { error: { message: `the batch server serves no ${method} ${path}` } });
  }

  private create(body: {
    input_file_id: string;
    endpoint: string;
    completion_window: string;
    metadata?: Record<string, string>;
  }): FakeBatch {
    const content = this.files.get(body.input_file_id) ?? '';
    const lines = content
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as BatchLine);
    this.requests.push(...lines);
    const batch: FakeBatch = {
      id: `batch_${randomUUID().replace(/-/g, '')}`,
      input_file_id: body.input_file_id,
      endpoint: body.endpoint,
      completion_window: body.completion_window,
      metadata: body.metadata ?? {},
      created_at: Math.floor(Date.now() / 1000),
      status: 'in_progress',
      output_file_id: null,
      error_file_id: null,
      request_counts: { total: lines.length, completed: 0, failed: 0 },
      lines,
      dueAt: Date.now() + (this.options.delayMs ?? 300),
    };
    this.batches.push(batch);
    return batch;
  }

  /** Ends a batch whose time has come: its output and error files written, its counts and status set. */
  private advance(batch: FakeBatch): FakeBatch {
    if (batch.status !== 'in_progress' || Date.now() < batch.dueAt) return batch;
    const index = this.batches.indexOf(batch);
    const answered = this.options.expire?.(index) ?? batch.lines.length;
    const output: string[] = [];
    const errors: string[] = [];
    batch.lines.forEach((line, i) => {
      if (i >= answered) {
        const error = {
          code: 'batch_expired',
          message: 'This request could not be executed before the window expired.',
        };
        errors.push(JSON.stringify({ id: `req_${i}`, custom_id: line.custom_id, response: null, error }));
        return;
      }
      const answer = (this.options.answer ?? echo)(line);
      if ('status' in answer) {
        const response = { status_code: answer.status, request_id: `req_${i}`, body: errorOf(answer) };
        errors.push(JSON.stringify({ id: `req_${i}`, custom_id: line.custom_id, response, error: null }));
        return;
      }
      const response = { status_code: 200, request_id: `req_${i}`, body: completionOf(line, answer, i) };
      output.push(JSON.stringify({ id: `req_${i}`, custom_id: line.custom_id, response, error: null }));
    });
    const write = (lines: string[]) => {
      if (!lines.length) return null;
      const id = `file-${randomUUID()}`;
      this.files.set(id, lines.join('\n') + '\n');
      return id;
    };
    batch.output_file_id = write(output);
    batch.error_file_id = write(errors);
    batch.request_counts = { total: batch.lines.length, completed: output.length, failed: errors.length };
    batch.status = answered < batch.lines.length ? 'expired' : 'completed';
    return batch;
  }

  /** A batch as the API shows it (without the fake's own fields); one running counts its requests done so far. */
  private view(batch: FakeBatch): Record<string, unknown> {
    const { lines: _lines, dueAt: _dueAt, ...shown } = batch;
    const expires_at = batch.created_at + 24 * 3600;
    if (batch.status !== 'in_progress') return { object: 'batch', ...shown, expires_at };
    const delay = this.options.delayMs ?? 300;
    const share = delay > 0 ? Math.min(1, Math.max(0, 1 - (batch.dueAt - Date.now()) / delay)) : 1;
    const completed = Math.floor(batch.lines.length * share);
    return { object: 'batch', ...shown, expires_at, request_counts: { ...batch.request_counts, completed } };
  }
}
