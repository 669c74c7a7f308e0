import { JsonServer, type Answer, type Received } from '../helpers/json-server.ts';

export type { Answer, Received } from '../helpers/json-server.ts';

/** How the server answers a chat completion: in order from a list, or from a function of the request. */
export type Script = Answer[] | ((request: Received) => Answer);

/** A chat-completions reply with `text`; `usage` is left out when undefined. */
export function completion(text: string, usage?: Record<string, number>): Answer {
  return {
    body: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 0,
      model: 'test',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      ...(usage ? { usage } : {}),
    },
  };
}

/** A chat-completions reply carrying `message` as it is (an assistant's tool calls, say), 10 tokens in and 3 out. */
export function messageReply(message: object): Answer {
  return {
    body: {
      id: 'chatcmpl-agent',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, message, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 3 },
    },
  };
}

/** An error reply in the shape OpenAI-compatible servers use. */
export function failure(status: number, message: string, headers?: Record<string, string>): Answer {
  return { status, body: { error: { message, code: status } }, ...(headers ? { headers } : {}) };
}

/** The user message of a received chat completion. */
export function userText(request: Received): string {
  const messages = request.body.messages as { role: string; content: string }[];
  return messages.find((m) => m.role === 'user')?.content ?? '';
}

/**
 * A real HTTP server on 127.0.0.1 speaking the chat-completions protocol from a script, and serving `GET /models`;
 * it answers 599 when a list script runs out, so a test that calls too often fails loudly.
 */
export class ChatServer {
  readonly received: Received[] = [];
  private server?: JsonServer;

  constructor(
    private readonly script: Script,
    private readonly models: unknown = { data: [] },
  ) {}

  /** Starts listening on a free port and returns the base URL (`http://127.0.0.1:PORT/v1`). */
  async start(): Promise<string> {
    this.server = new JsonServer((request) => {
      this.received.push(request);
      return request.method === 'GET' && request.path === '/models'
        ? { body: this.models }
        : this.next(request);
    });
    return `${await this.server.listen()}/v1`;
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }

  /** The chat completions received, in order. */
  completions(): Received[] {
    return this.received.filter((r) => r.path === '/chat/completions');
  }

  private next(request: Received): Answer {
    if (typeof this.script === 'function') return this.script(request);
    return this.script.shift() ?? failure(599, 'the test server has no scripted answer left');
  }
}

/** A port on 127.0.0.1 where nothing listens: a server started and stopped again. */
export async function closedPort(): Promise<string> {
  const server = new ChatServer([]);
  const url = await server.start();
  await server.stop();
  return url;
}
