import { estimateReplyTokens, estimateRequestTokens } from '../core/estimate.ts';
import { Adapter } from './adapter.ts';
import { completionRequestOf } from './conversation.ts';
import type {
  ModelRequest,
  Case,
  CatalogEntry,
  CompletionRequest,
  Json,
  Model,
  ModelSettings,
  Provider,
  ProviderResponse,
  Reply,
  ToolCallMade,
} from './types.ts';

/** A canned answer: its text, or its text with the tools the model asks to call (a stand-in agent's step). */
export type FakeAnswer = string | { text: string; toolCalls?: ToolCallMade[] };

/** A canned reply: an answer, an error to throw (a transport failure), or a function of the request. */
export type FakeReply = FakeAnswer | Error | ((request: CompletionRequest) => FakeAnswer);

/**
 * How a fake model answers: `'echo'` returns the user text; a list is used up in order; a function answers every
 * call (for a stand-in model that never runs out, such as the one `llm-evals init` writes).
 */
export type FakeScript = 'echo' | FakeReply[] | ((request: CompletionRequest) => FakeAnswer);

/** Thrown when a fake model is called more often than it has canned replies for. */
export class FakeRepliesExhausted extends Error {
  readonly type = 'FakeRepliesExhausted';
}

function answer(
  script: FakeScript | undefined,
  id: string,
  call: number,
  request: CompletionRequest,
): FakeAnswer {
  if (script === 'echo') return request.user;
  if (typeof script === 'function') return script(request);
  const next = script?.shift();
  if (next === undefined) {
    throw new FakeRepliesExhausted(`fake model ${id} has no canned reply left for call ${call}`);
  }
  if (next instanceof Error) throw next;
  return typeof next === 'function' ? next(request) : next;
}

/** Options of a FakeProvider; prices are dollars per token. */
export interface FakeProviderOptions {
  name?: string;
  prefix?: string;
  requestType?: string;
  direct?: boolean;
  models: Record<string, FakeScript>;
  inputPrice?: number;
  outputPrice?: number;
}

/**
 * A provider with canned replies for tests and examples; it fails loudly when a model runs out of replies. It bills
 * usage as a real provider would, by the rule of `estimateTokens`: the request's messages with their chat-template
 * markers, and the reply with the token that ended it.
 */
export class FakeProvider implements Provider {
  readonly name: string;
  readonly prefix: string;
  readonly requestType: string;
  readonly requestTypeDescription = 'a chat completion answered from canned replies';
  readonly direct: boolean;
  readonly envKeys: string[] = [];
  readonly efforts = ['low', 'medium', 'high'];
  /** Every call in order, for assertions. */
  readonly calls: { model: string; request: CompletionRequest; settings: ModelSettings }[] = [];
  private readonly scripts: Record<string, FakeScript>;
  private readonly inputPrice: number;
  private readonly outputPrice: number;

  constructor(options: FakeProviderOptions) {
    this.name = options.name ?? 'fake';
    this.prefix = options.prefix ?? `${this.name}/`;
    this.requestType = options.requestType ?? 'prompt';
    this.direct = options.direct ?? false;
    this.scripts = Object.fromEntries(
      Object.entries(options.models).map(([name, script]) => [
        name,
        Array.isArray(script) ? [...script] : script,
      ]),
    );
    this.inputPrice = options.inputPrice ?? 1e-6;
    this.outputPrice = options.outputPrice ?? 2e-6;
  }

  catalog(): CatalogEntry[] {
    return Object.keys(this.scripts).map((name) => ({
      id: `${this.prefix}${name}`,
      inputPrice: this.inputPrice,
      outputPrice: this.outputPrice,
    }));
  }

  /** Counts input tokens as `complete` bills them: each message's tokens and template markers. */
  countTokens(_model: ModelSettings & { name: string; id: string }, request: CompletionRequest): number {
    return estimateRequestTokens(request);
  }

  complete(
    model: ModelSettings & { name: string; id: string },
    request: CompletionRequest,
  ): Promise<ProviderResponse> {
    const { name, id, ...settings } = model;
    this.calls.push({ model: id, request, settings });
    const script = this.scripts[name];
    if (!script) return Promise.reject(new Error(`fake provider ${this.name} has no model ${name}`));
    try {
      const given = answer(script, id, this.calls.length, request);
      const { text, toolCalls } = typeof given === 'string' ? { text: given, toolCalls: undefined } : given;
      const inputTokens = this.countTokens(model, request);
      // A tool call is billed as the model writes it: its name and arguments as JSON.
      const outputTokens = estimateReplyTokens(toolCalls ? text + JSON.stringify(toolCalls) : text);
      const costUsd = inputTokens * this.inputPrice + outputTokens * this.outputPrice;
      const usage = { inputTokens, outputTokens, costUsd };
      return Promise.resolve({ text, ...(toolCalls ? { toolCalls } : {}), usage, raw: { fake: true } });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** A Model with canned replies, for testing an adapter without a provider. */
export class FakeModel implements Model {
  readonly name: string;
  readonly provider = 'fake';
  readonly requests: CompletionRequest[] = [];
  private readonly script: FakeScript;

  constructor(
    readonly id: string,
    script: FakeScript,
    settings: ModelSettings = {},
  ) {
    this.name = id.slice(id.indexOf('/') + 1);
    this.script = Array.isArray(script) ? [...script] : script;
    Object.assign(this, settings);
  }

  complete(asked: ModelRequest): Promise<ProviderResponse> {
    const request = completionRequestOf(asked);
    this.requests.push(request);
    try {
      const given = answer(this.script, this.id, this.requests.length, request);
      const usage = { inputTokens: null, outputTokens: null, costUsd: null };
      return Promise.resolve(typeof given === 'string' ? { text: given, usage } : { ...given, usage });
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

/** Asks the model to repeat the case's expected answer as JSON and parses what comes back; pairs with `'echo'` fakes. */
export class EchoAdapter extends Adapter {
  async call(kase: Case, model: Model): Promise<Reply> {
    const response = await model.complete({
      system: 'Repeat the JSON object you are given, exactly.',
      user: JSON.stringify(kase.expected),
      json: true,
    });
    try {
      return { output: JSON.parse(response.text) as Json, raw: response.text, usage: response.usage };
    } catch {
      return { error: `not JSON: ${response.text.slice(0, 80)}`, raw: response.text, usage: response.usage };
    }
  }
}
