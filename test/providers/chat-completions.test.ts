import { afterEach, describe, expect, it } from 'vitest';
import type { CompletionRequest, ModelSettings } from '../../src/api/types.ts';
import { ProviderError } from '../../src/providers/errors.ts';
import { OpenAICompatibleProvider } from '../../src/providers/openai-compatible.ts';
import { OpenRouterProvider } from '../../src/providers/openrouter.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { ChatServer, closedPort, completion, failure, type Answer } from './chat-server.ts';

const dirs = new TempDirs();
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
  dirs.removeAll();
});

/** A server answering from `script`, and an OpenRouter provider pointed at it with a key and an empty cache. */
async function openRouter(script: Answer[], models?: unknown) {
  const server = new ChatServer(script, models);
  servers.push(server);
  const env = {
    OPENROUTER_BASE_URL: await server.start(),
    OPENROUTER_API_KEY: 'sk-test',
    XDG_CACHE_HOME: dirs.os(),
  };
  return { server, env, provider: new OpenRouterProvider(env) };
}

const model = (settings: ModelSettings = {}) => ({ id: 'acme/m1', name: 'acme/m1', ...settings });
const HI: CompletionRequest = { user: 'hi' };
const USAGE = { prompt_tokens: 10, completion_tokens: 4 };

describe('OpenRouter: what the request carries', () => {
  it.each([
    ['nothing set', {}, HI, {}, ['temperature', 'max_tokens', 'response_format', 'reasoning', 'seed']],
    ["a repeat's seed", { seed: 3 }, HI, { seed: 3 }, ['temperature']],
    [
      'every setting',
      { effort: 'high', temperature: 0.3, maxTokens: 50 },
      { system: 'be brief', user: 'hi', json: true },
      {
        reasoning: { effort: 'high' },
        temperature: 0.3,
        max_tokens: 50,
        response_format: { type: 'json_object' },
      },
      [],
    ],
    ['temperature 0', { temperature: 0 }, HI, { temperature: 0 }, ['reasoning']],
    ['json: false', {}, { user: 'hi', json: false }, {}, ['response_format']],
  ] as const)('%s', async (_, settings, request, sent, absent) => {
    const { server, provider } = await openRouter([completion('ok', USAGE)]);
    await provider.complete(model(settings), request);
    const [call] = server.completions();
    const system = 'system' in request ? [{ role: 'system', content: 'be brief' }] : [];
    const messages = [...system, { role: 'user', content: 'hi' }];
    expect(call!.body).toMatchObject({ model: 'acme/m1', messages, usage: { include: true }, ...sent });
    for (const key of absent) expect(call!.body).not.toHaveProperty(key);
    expect(call!.headers.authorization).toBe('Bearer sk-test');
  });

  it('reads the key at call time and never forwards OPENAI_ORG_ID or OPENAI_PROJECT_ID', async () => {
    const { server, env, provider } = await openRouter([completion('ok')]);
    Object.assign(env, { OPENROUTER_API_KEY: 'sk-later' });
    process.env.OPENAI_ORG_ID = 'org-secret';
    process.env.OPENAI_PROJECT_ID = 'proj-secret';
    try {
      await provider.complete(model(), HI);
    } finally {
      delete process.env.OPENAI_ORG_ID;
      delete process.env.OPENAI_PROJECT_ID;
    }
    const headers = server.completions()[0]!.headers;
    expect(headers.authorization).toBe('Bearer sk-later');
    expect(headers).not.toHaveProperty('openai-organization');
    expect(headers).not.toHaveProperty('openai-project');
  });

  it('fails with status 401, before any request, when the key is missing', async () => {
    const { server, env, provider } = await openRouter([]);
    delete (env as Record<string, string | undefined>).OPENROUTER_API_KEY;
    const error = (await provider.complete(model(), HI).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.status).toBe(401);
    expect(error.message).toContain('OPENROUTER_API_KEY');
    expect(server.received).toHaveLength(0);
  });
});

describe('OpenRouter: usage and cost', () => {
  const catalog = { data: [{ id: 'acme/m1', pricing: { prompt: '0.000001', completion: '0.000003' } }] };
  it.each([
    [
      'stated cost',
      completion('ok', { ...USAGE, cost: 0.5 }),
      { inputTokens: 10, outputTokens: 4, costUsd: 0.5 },
    ],
    [
      'no cost: priced from the catalog',
      completion('ok', USAGE),
      { inputTokens: 10, outputTokens: 4, costUsd: 22e-6 },
    ],
    ['no usage: all unknown', completion('ok'), { inputTokens: null, outputTokens: null, costUsd: null }],
    [
      'only prompt tokens: cost unknown',
      completion('ok', { prompt_tokens: 10 }),
      { inputTokens: 10, outputTokens: null, costUsd: null },
    ],
  ] as const)('%s', async (_, answer, usage) => {
    const { provider } = await openRouter([answer], catalog);
    const response = await provider.complete(model(), HI);
    expect(response.text).toBe('ok');
    expect(response.usage.inputTokens).toBe(usage.inputTokens);
    expect(response.usage.outputTokens).toBe(usage.outputTokens);
    if (usage.costUsd === null) expect(response.usage.costUsd).toBeNull();
    else expect(response.usage.costUsd).toBeCloseTo(usage.costUsd, 12);
  });

  it('leaves the cost unknown when the catalog does not list the model', async () => {
    const { provider } = await openRouter([completion('ok', USAGE)], { data: [] });
    expect((await provider.complete(model(), HI)).usage).toEqual({
      inputTokens: 10,
      outputTokens: 4,
      costUsd: null,
    });
  });
});

describe('OpenRouter: failures become ProviderErrors', () => {
  it.each([
    ['401', failure(401, 'No auth credentials found'), 401, undefined],
    ['403', failure(403, 'Key disabled'), 403, undefined],
    ['404', failure(404, 'No endpoints found for acme/m1'), 404, undefined],
    ['429 with Retry-After seconds', failure(429, 'slow down', { 'retry-after': '7' }), 429, 7],
    ['503 with retry-after-ms', failure(503, 'overloaded', { 'retry-after-ms': '1500' }), 503, 1.5],
    [
      'an error inside a 200 reply',
      { body: { error: { code: 502, message: 'upstream died' } } },
      502,
      undefined,
    ],
    ['a 200 reply with no choices', { body: { id: 'x', choices: [] } }, undefined, undefined],
    ['a dropped connection', { drop: true }, undefined, undefined],
  ] as const)('%s', async (_, answer, status, retryAfter) => {
    const { provider } = await openRouter([answer]);
    const error = (await provider.complete(model(), HI).catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ type: 'ProviderError', provider: 'openrouter', model: 'acme/m1' });
    expect(error.status).toBe(status);
    expect(error.retryAfter).toBe(retryAfter);
    if (status && status !== 502) expect(error.message).toMatch(new RegExp(`^HTTP ${status}: `));
  });

  it.each([
    ['the key it was sent', 'Incorrect API key provided: sk-test.'],
    ['a masked key', 'Incorrect API key provided: sk-proj-********abcd. Find yours at https://x'],
  ])('keeps %s out of the message, which lands in results and logs', async (_, said) => {
    const { provider } = await openRouter([failure(401, said)]);
    const error = (await provider.complete(model(), HI).catch((e: unknown) => e)) as ProviderError;
    expect(error.message).toMatch(/^HTTP 401: Incorrect API key provided: \[key\]/);
    expect(error.message).not.toMatch(/sk-|abcd/);
  });

  it('parses a Retry-After date into seconds from now', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    const { provider } = await openRouter([failure(429, 'later', { 'retry-after': at })]);
    const error = (await provider.complete(model(), HI).catch((e: unknown) => e)) as ProviderError;
    expect(error.retryAfter).toBeGreaterThan(25);
    expect(error.retryAfter).toBeLessThanOrEqual(30);
  });

  it('throws with no status, to be retried like a 503, when the endpoint refuses connections', async () => {
    const env = {
      OPENROUTER_BASE_URL: await closedPort(),
      OPENROUTER_API_KEY: 'k',
      XDG_CACHE_HOME: dirs.os(),
    };
    const error = (await new OpenRouterProvider(env)
      .complete(model(), HI)
      .catch((e: unknown) => e)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(/^cannot connect to http:\/\/127\.0\.0\.1:\d+\/v1 \(connection refused\)/);
    // A provider restarting refuses connections for a few seconds (issue 44): retried, not failed at once.
    expect(error.retryable).toBeUndefined();
  });
});

describe('an OpenAI-compatible endpoint', () => {
  async function endpoint(script: Answer[], settings: { apiKeyEnv?: string; env?: NodeJS.ProcessEnv } = {}) {
    const server = new ChatServer(script);
    servers.push(server);
    const provider = new OpenAICompatibleProvider(
      'local',
      {
        baseUrl: await server.start(),
        ...(settings.apiKeyEnv ? { apiKeyEnv: settings.apiKeyEnv } : {}),
        prices: { input: 1, output: 2 },
        models: [{ model: 'small' }, { model: 'free', prices: { input: 0, output: 0 } }],
      },
      settings.env ?? {},
    );
    return { server, provider };
  }
  const local = (name: string, settings: ModelSettings = {}) => ({ id: `local/${name}`, name, ...settings });

  it('sends effort as reasoning_effort, no OpenRouter fields, and no Authorization without a key', async () => {
    const { server, provider } = await endpoint([completion('ok', USAGE)]);
    await provider.complete(local('small', { effort: 'low', maxTokens: 9 }), HI);
    const [call] = server.completions();
    expect(call!.body).toMatchObject({ model: 'small', reasoning_effort: 'low', max_tokens: 9 });
    expect(call!.body).not.toHaveProperty('usage');
    expect(call!.body).not.toHaveProperty('reasoning');
    expect(call!.headers).not.toHaveProperty('authorization');
  });

  it('sends a conversation and its tools, and reads the tool calls of the reply beside its text', async () => {
    const reply: Answer = {
      body: {
        id: 'chatcmpl-tools',
        object: 'chat.completion',
        created: 0,
        model: 'small',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: { name: 'weather', arguments: '{"city":"Paris"}' },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: USAGE,
      },
    };
    const { server, provider } = await endpoint([reply]);
    const parameters = { type: 'object', properties: { city: { type: 'string' } } };
    const response = await provider.complete(local('small'), {
      system: 'use tools',
      user: 'weather?',
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', toolCalls: [{ id: 'call_0', name: 'weather', arguments: { city: 'Lyon' } }] },
        { role: 'tool', content: '12', toolCallId: 'call_0' },
      ],
      tools: [{ name: 'weather', description: 'the weather in a city', parameters }],
      toolChoice: 'auto',
    });
    expect(server.completions()[0]!.body).toMatchObject({
      messages: [
        { role: 'system', content: 'use tools' },
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_0', type: 'function', function: { name: 'weather', arguments: '{"city":"Lyon"}' } },
          ],
        },
        { role: 'tool', content: '12', tool_call_id: 'call_0' },
      ],
      tools: [
        { type: 'function', function: { name: 'weather', description: 'the weather in a city', parameters } },
      ],
      tool_choice: 'auto',
    });
    expect(response.text).toBe('');
    expect(response.toolCalls).toEqual([{ id: 'call_1', name: 'weather', arguments: { city: 'Paris' } }]);
    expect(response.usage).toMatchObject({ inputTokens: 10, outputTokens: 4 });
  });

  it('sends no tool fields and reads no tool calls for a plain request', async () => {
    const { server, provider } = await endpoint([completion('ok', USAGE)]);
    const response = await provider.complete(local('small'), HI);
    expect(server.completions()[0]!.body).not.toHaveProperty('tools');
    expect(server.completions()[0]!.body).not.toHaveProperty('tool_choice');
    expect(response).not.toHaveProperty('toolCalls');
  });

  it('sends the key named by api_key_env', async () => {
    const { server, provider } = await endpoint([completion('ok')], {
      apiKeyEnv: 'LOCAL_KEY',
      env: { LOCAL_KEY: 'sk-local' },
    });
    expect(provider.envKeys).toEqual(['LOCAL_KEY']);
    await provider.complete(local('small'), HI);
    expect(server.completions()[0]!.headers.authorization).toBe('Bearer sk-local');
  });

  it.each([
    ['the section prices', 'small', 10e-6 + 8e-6],
    ['a model’s own prices', 'free', 0],
    ['the section prices for a model it does not list', 'other', 10e-6 + 8e-6],
  ])('prices a call from %s (dollars per million tokens)', async (_, name, cost) => {
    const { provider } = await endpoint([completion('ok', USAGE)]);
    expect((await provider.complete(local(name), HI)).usage.costUsd).toBeCloseTo(cost, 12);
  });

  it('lists its models and prices as its catalog, without the network', () => {
    const provider = new OpenAICompatibleProvider('local', {
      baseUrl: 'http://127.0.0.1:1/v1',
      prices: { input: 1, output: 2 },
      models: [{ model: 'small' }],
    });
    expect(provider.catalog()).toEqual([{ id: 'local/small', inputPrice: 1e-6, outputPrice: 2e-6 }]);
    expect(provider).toMatchObject({ name: 'local', prefix: 'local/', requestType: 'prompt', direct: false });
  });
});
