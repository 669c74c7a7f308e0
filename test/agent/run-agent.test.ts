import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cachedModel, type ReplyCache } from '../../activities/cached-model.ts';
import { MAX_STEPS, runAgent, type AgentTool } from '../../src/agent/run-agent.ts';
import type { Model, ModelRequest, ProviderResponse, ToolCallMade } from '../../src/api/types.ts';
import { FakeProvider } from '../../src/api/testing.ts';
import { ReplyStore } from '../../src/cache/store.ts';
import type { Contender } from '../../src/core/matrix.ts';
import { ConfigError } from '../../src/errors.ts';

/**
 * A model with canned responses, used up in order; it fails loudly when it runs out, and keeps every request. Its
 * state is in #private fields: the reply cache keys a call by the model's own fields, as a worker's model has them.
 */
class ScriptedModel implements Model {
  readonly id = 'fake/agent';
  readonly name = 'agent';
  readonly provider = 'fake';
  readonly #requests: ModelRequest[] = [];
  readonly #script: Partial<ProviderResponse>[];
  constructor(script: Partial<ProviderResponse>[]) {
    this.#script = script;
  }
  get requests(): ModelRequest[] {
    return this.#requests;
  }
  complete(request: ModelRequest): Promise<ProviderResponse> {
    this.#requests.push(structuredClone(request));
    const next = this.#script.shift();
    if (!next)
      return Promise.reject(new Error(`ScriptedModel: no reply left for call ${this.#requests.length}`));
    return Promise.resolve({
      text: '',
      usage: { inputTokens: 10, outputTokens: 2, costUsd: 0.001 },
      ...next,
    });
  }
}

const call = (id: string, name: string, args: Record<string, unknown> = {}): ToolCallMade => ({
  id,
  name,
  arguments: args,
});
const calls = (...toolCalls: ToolCallMade[]): Partial<ProviderResponse> => ({ toolCalls });
const USER = [{ role: 'user' as const, content: 'Weather in Paris, then book?' }];

function tools(log: string[]): Record<string, AgentTool> {
  return {
    weather: {
      description: 'the weather in a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      run: (args) => (log.push(`weather ${String(args.city)}`), { city: args.city, celsius: 18 }),
    },
    book: {
      parameters: { type: 'object' },
      run: (args) => {
        log.push(`book ${String(args.hotel)}`);
        if (args.hotel === 'full') throw new Error('no room left');
        return 'booked';
      },
    },
  };
}

describe('runAgent', () => {
  it('runs model step → tool calls → tool results → next step, and returns the answer with its trajectory', async () => {
    const model = new ScriptedModel([
      calls(call('c1', 'weather', { city: 'Paris' })),
      calls(call('c2', 'book', { hotel: 'H1' }), call('c3', 'weather', { city: 'Lyon' })),
      { text: '{"booked": true}', usage: { inputTokens: 30, outputTokens: 5, costUsd: null } },
    ]);
    const log: string[] = [];
    const reply = await runAgent(model, { messages: USER, system: 'be useful', tools: tools(log) });
    expect(reply.output).toEqual({ booked: true });
    expect(reply.raw).toBe('{"booked": true}');
    expect(reply.error).toBeUndefined();
    expect(reply.usage).toMatchObject({ inputTokens: 50, outputTokens: 9 });
    expect(reply.usage!.costUsd).toBeCloseTo(0.002, 12);
    expect(log).toEqual(['weather Paris', 'book H1', 'weather Lyon']);
    expect(reply.trajectory.map((s) => s.status)).toEqual(['tool_calls', 'tool_calls', 'answer']);
    expect(reply.trajectory[1]!.toolRuns).toEqual([
      { call: call('c2', 'book', { hotel: 'H1' }), status: 'ok', result: 'booked' },
      { call: call('c3', 'weather', { city: 'Lyon' }), status: 'ok', result: '{"city":"Lyon","celsius":18}' },
    ]);
    // Each step sends the conversation so far: what the reply cache keys it by.
    expect(model.requests[2]).toMatchObject({
      system: 'be useful',
      messages: [
        USER[0],
        { role: 'assistant', toolCalls: [call('c1', 'weather', { city: 'Paris' })] },
        { role: 'tool', content: '{"city":"Paris","celsius":18}', toolCallId: 'c1' },
        {
          role: 'assistant',
          toolCalls: [call('c2', 'book', { hotel: 'H1' }), call('c3', 'weather', { city: 'Lyon' })],
        },
        { role: 'tool', content: 'booked', toolCallId: 'c2' },
        { role: 'tool', content: '{"city":"Lyon","celsius":18}', toolCallId: 'c3' },
      ],
    });
    expect(model.requests[0]!.tools).toEqual([
      {
        name: 'weather',
        description: 'the weather in a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
      { name: 'book', parameters: { type: 'object' } },
    ]);
    // A step's request is what it added to the conversation: the steps' requests together are the conversation.
    expect(reply.trajectory.flatMap((s) => s.request.messages)).toEqual(model.requests[2]!.messages);
    expect(reply.trajectory.every((s) => s.latency >= 0)).toBe(true);
  });

  it('keeps a text answer as text', async () => {
    const reply = await runAgent(new ScriptedModel([{ text: 'sunny' }]), {
      messages: USER,
      tools: tools([]),
    });
    expect(reply).toMatchObject({ output: 'sunny', raw: 'sunny' });
    expect(reply.trajectory).toHaveLength(1);
  });

  it('records a call to a tool the case does not define as invented, tells the model, and goes on', async () => {
    const model = new ScriptedModel([calls(call('c1', 'fly', { to: 'Rome' })), { text: 'done' }]);
    const reply = await runAgent(model, { messages: USER, tools: tools([]) });
    expect(reply.output).toBe('done');
    expect(reply.trajectory[0]!.toolRuns).toEqual([
      {
        call: call('c1', 'fly', { to: 'Rome' }),
        status: 'invented',
        result: 'error: there is no tool named "fly" (tools: weather, book)',
      },
    ]);
    expect(model.requests[1]!.messages!.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1' });
  });

  it('records a tool that throws as an error the model reads', async () => {
    const model = new ScriptedModel([calls(call('c1', 'book', { hotel: 'full' })), { text: 'sorry' }]);
    const reply = await runAgent(model, { messages: USER, tools: tools([]) });
    expect(reply.trajectory[0]!.toolRuns[0]).toMatchObject({
      status: 'error',
      result: 'error: no room left',
    });
  });

  it('names maxSteps when the model keeps calling tools, and runs no tool on the last step', async () => {
    const looping = Array.from({ length: 3 }, (_, i) => calls(call(`c${i}`, 'weather', { city: 'Paris' })));
    const log: string[] = [];
    const reply = await runAgent(new ScriptedModel(looping), {
      messages: USER,
      tools: tools(log),
      maxSteps: 3,
    });
    expect(reply.error).toBe(`${MAX_STEPS}: the model was still calling tools after 3 steps (maxSteps 3)`);
    expect(reply.output).toBeUndefined();
    expect(reply.trajectory.map((s) => s.status)).toEqual(['tool_calls', 'tool_calls', 'max_steps']);
    expect(log).toEqual(['weather Paris', 'weather Paris']);
    expect(reply.usage).toMatchObject({ inputTokens: 30, outputTokens: 6 });
    expect(reply.usage!.costUsd).toBeCloseTo(0.003, 12);
  });

  it('lets a model failure through, for the run to retry', async () => {
    const model = new ScriptedModel([calls(call('c1', 'weather', { city: 'Paris' }))]);
    await expect(runAgent(model, { messages: USER, tools: tools([]) })).rejects.toThrow(
      /no reply left for call 2/,
    );
  });

  it('refuses a tool without a JSON schema of its parameters before any call', async () => {
    const model = new ScriptedModel([{ text: 'x' }]);
    const bad = { weather: { run: () => 1 } } as unknown as Record<string, AgentTool>;
    const failure = await runAgent(model, { messages: USER, tools: bad }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).key).toBe('tools.weather.parameters');
    expect(model.requests).toEqual([]);
  });
});

describe('runAgent through the reply cache', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const CONTENDER: Contender = {
    key: 'fake:fake/agent',
    id: 'fake/agent',
    provider: 'fake',
    model: 'agent',
    effort: 'default',
    temperature: null,
    maxTokens: null,
    limits: [],
  };

  /** The run's model as a worker builds it: the reply cache (a real store on disk) before the model. */
  function cached(store: ReplyStore, inner: Model) {
    const cache: ReplyCache = {
      get: (k) => store.get(k),
      put: (e) => store.put(e),
      modeOf: () => Promise.resolve('read'),
    };
    const hits = { replies: 0, calls: 0, paidUsd: 0 };
    const log = { usage: { inputTokens: null, outputTokens: null, costUsd: null }, latency: null, waited: 0 };
    const provider = new FakeProvider({ models: {} });
    return { model: cachedModel(inner, CONTENDER, provider, 'run-1', cache, log, hits), hits };
  }

  it('resumes a case interrupted at step 3 by replaying steps 1-2 from the cache: no finished step paid again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'llm-evals-agent-'));
    dirs.push(dir);
    const store = new ReplyStore(join(dir, 'replies'));
    const steps = [
      calls(call('c1', 'weather', { city: 'Paris' })),
      calls(call('c2', 'book', { hotel: 'H1' })),
      { text: 'booked' },
    ];
    // The first attempt dies at step 3 (the provider is gone).
    const first = new ScriptedModel(steps.slice(0, 2));
    const run1 = cached(store, first);
    await expect(runAgent(run1.model, { messages: USER, tools: tools([]) })).rejects.toThrow(/no reply left/);
    expect(run1.hits).toMatchObject({ calls: 3, replies: 0 });
    // The resumed attempt has only step 3 to pay for; steps 1-2 come from the cache, keyed by the conversation.
    const second = new ScriptedModel(steps.slice(2));
    const run2 = cached(store, second);
    const reply = await runAgent(run2.model, { messages: USER, tools: tools([]) });
    expect(reply.output).toBe('booked');
    expect(run2.hits).toMatchObject({ calls: 1, replies: 2 });
    expect(second.requests).toHaveLength(1);
    expect(reply.trajectory.map((s) => s.reply.toolCalls.map((c) => c.name))).toEqual([
      ['weather'],
      ['book'],
      [],
    ]);
    // A re-run of the finished case calls nothing.
    const third = new ScriptedModel([]);
    const run3 = cached(store, third);
    expect((await runAgent(run3.model, { messages: USER, tools: tools([]) })).output).toBe('booked');
    expect(run3.hits).toMatchObject({ calls: 0, replies: 3 });
  });
});
