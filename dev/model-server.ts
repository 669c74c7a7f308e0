/**
 * A chat-completions server around a local GGUF model, for trying llm-evals on a real model and for the
 * real-model test. Dev tooling only: the CLI never imports it.
 *
 *   dev/setup-real-model.sh    (node-llama-cpp into dev/real-model/node_modules, and the model; once)
 *   node --import tsx dev/model-server.ts [--model FILE] [--id NAME] [--port 8080]
 *
 * POST /v1/chat/completions (messages, temperature, max_tokens, response_format json_object; usage in the reply)
 * and GET /v1/models. It listens on 127.0.0.1 only and prints `listening on <base URL>` when ready.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { defaultModelPath, loadLocalModel, type LocalModel } from './local-model.ts';

const RequestSchema = z.object({
  model: z.string(),
  messages: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })).min(1),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  response_format: z.object({ type: z.enum(['text', 'json_object']) }).optional(),
});

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const fail = (res: ServerResponse, status: number, message: string) =>
  send(res, status, { error: { message, type: 'invalid_request_error' } });

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return JSON.parse(text);
}

async function complete(model: LocalModel, id: string, req: IncomingMessage, res: ServerResponse) {
  let body: unknown;
  try {
    body = await readJson(req);
  } catch {
    return fail(res, 400, 'the body is not JSON');
  }
  const parsed = RequestSchema.safeParse(body);
  if (!parsed.success) return fail(res, 400, parsed.error.issues[0]!.message);
  const request = parsed.data;
  if (request.model !== id) return fail(res, 404, `this server serves ${id}, not ${request.model}`);
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  const out = await model.chat(request.messages, {
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    json: request.response_format?.type === 'json_object',
  });
  send(res, 200, {
    id: `chatcmpl-${Date.now().toString(36)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: id,
    choices: [
      { index: 0, message: { role: 'assistant', content: out.text }, finish_reason: out.finishReason },
    ],
    usage: {
      prompt_tokens: out.promptTokens,
      completion_tokens: out.completionTokens,
      total_tokens: out.promptTokens + out.completionTokens,
    },
  });
}

const { values } = parseArgs({
  options: {
    model: { type: 'string', default: defaultModelPath() },
    id: { type: 'string', default: 'smollm2-135m-instruct' },
    port: { type: 'string', default: '8080' },
  },
});
const id = values.id;
const model = await loadLocalModel(values.model);
const server = createServer((req, res) => {
  const path = req.url?.split('?')[0];
  if (req.method === 'GET' && path === '/v1/models') {
    const data = [{ id, object: 'model', created: 0, owned_by: 'llm-evals-dev' }];
    return send(res, 200, { object: 'list', data });
  }
  if (req.method === 'POST' && path === '/v1/chat/completions') {
    return void complete(model, id, req, res).catch((error: unknown) => fail(res, 500, String(error)));
  }
  fail(res, 404, `no route ${req.method} ${path}`);
});
server.listen(Number(values.port), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : values.port;
  process.stdout.write(`listening on http://127.0.0.1:${port}/v1 (${id}, ${model.threads} threads)\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void model.close().finally(() => process.exit(0));
  });
}
