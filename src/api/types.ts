import { z } from 'zod';

/** Any value that survives JSON: what expected answers, outputs and metadata are made of. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** One case on disk: an input, the expected answer, and what the folder says about it. */
export interface Case {
  /** `variant/NNN` or `variant`, unique within its dataset. */
  id: string;
  /** `dataset/id`, unique within the suite. */
  key: string;
  dataset: string;
  variant: string;
  /** The text of `input.txt`, or of `input.json` for a conversation. */
  input: string;
  /** A conversation's messages, from `input.json` (`{ "messages": [...] }`). */
  messages?: Message[];
  expected: Json;
  /** The folder holding `input.txt`. */
  path: string;
  metadata: Record<string, Json>;
}

/** Tokens and dollars of one or more calls; `null` means the provider did not say. */
export const UsageSchema = z.object({
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  costUsd: z.number().nullable(),
});
/** Tokens and dollars of one or more calls; `null` means the provider did not say. */
export type Usage = z.infer<typeof UsageSchema>;

/** A tool call as a model makes it: the model's id for the call, the tool's name and the arguments it passed. */
export const ToolCallMadeSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** The model's argument text when it is not a JSON object (the arguments are then `{}`). */
  argumentsText: z.string().optional(),
});
/** A tool call as a model makes it: the model's id for the call, the tool's name and the arguments it passed. */
export type ToolCallMade = z.infer<typeof ToolCallMadeSchema>;

/** The roles of a conversation's messages. */
export const MESSAGE_ROLES = ['system', 'user', 'assistant', 'tool'] as const;
/** One message of a conversation: its role and text, an assistant's tool calls, or the call a tool result answers. */
export const MessageSchema = z.strictObject({
  role: z.enum(MESSAGE_ROLES),
  content: z.string().optional(),
  toolCalls: z.array(ToolCallMadeSchema).optional(),
  toolCallId: z.string().optional(),
});
/** One message of a conversation: its role and text, an assistant's tool calls, or the call a tool result answers. */
export type Message = z.infer<typeof MessageSchema>;

/** A tool the model may call, OpenAI-style: its name, what it does, and its arguments' JSON schema. */
export interface ToolDefinition {
  name: string;
  description?: string;
  parameters: Record<string, unknown>;
}

/** Whether the model may, must not or must call a tool, or which one it must call. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** What a provider returns for one completion. */
export interface ProviderResponse {
  text: string;
  /** The tools the model asks to call, in its order (absent when it calls none). */
  toolCalls?: ToolCallMade[];
  usage: Usage;
  raw?: unknown;
  /** `true` when the provider stopped the reply at its token limit (`finish_reason: length`), so the text is cut. */
  truncated?: boolean;
}

/** What an adapter returns for one case; `error` marks the model's failure (scored 0, counted as an error). */
export interface Reply {
  output?: Json;
  raw?: string;
  usage?: Usage;
  error?: string;
  metadata?: Record<string, Json>;
}

/** A column the scorer fills: `primary` ranks the leaderboard when no weights are set. */
export const MetricSchema = z.object({
  name: z.string(),
  description: z.string(),
  aggregate: z.literal('mean').optional(),
  primary: z.boolean().optional(),
  /** `count`: a mean of counts (an agent's steps), shown as a number; else a share in 0–1, shown as a percentage. */
  unit: z.literal('count').optional(),
});
/** A column the scorer fills: `primary` ranks the leaderboard when no weights are set. */
export type Metric = z.infer<typeof MetricSchema>;

/** A scorer's verdict on one reply: `value` in 0..1, metrics by name (`null` = does not apply, skipped in means). */
export interface Score {
  value: number;
  metrics: Record<string, number | null>;
  outcomes?: Record<string, number>;
  diagnostics?: Record<string, Json>;
}

/** One completion request as the adapter builds it. */
export interface CompletionRequest {
  system?: string;
  /** The user's text; in a conversation, its last user message's (providers that speak chat send `messages`). */
  user: string;
  /** A conversation, sent after `system` in place of `user` by providers that speak chat. */
  messages?: Message[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  json?: boolean;
}

/** What an adapter asks of a model: a completion request, or a conversation (`messages`) with no `user`. */
export type ModelRequest = Omit<CompletionRequest, 'user'> & { user?: string };

/** The contender's settings as a provider sees them; `undefined` means send nothing. */
export interface ModelSettings {
  effort?: string;
  temperature?: number;
  maxTokens?: number;
  /** `--repeat`'s seed: sent by providers that take one, so a repeat is reproducible where the model allows. */
  seed?: number;
}

/** A contender's model as the adapter sees it: its id, settings and a way to call it. */
export interface Model extends ModelSettings {
  /** `<vendor>/<model>` or `<prefix><name>`. */
  id: string;
  /** What the provider is asked for (OpenRouter's id, or a direct provider's own model name). */
  name: string;
  provider: string;
  complete(request: ModelRequest): Promise<ProviderResponse>;
  /** Where a run keeps an agent's tool results beside its model steps (absent outside a cached run). */
  toolResults?: ToolResultLog;
}

/** A tool call's result as a run keeps it: whether the tool ran or threw, and the text the model read. */
export interface RecordedToolRun {
  status: 'ok' | 'error';
  result: string;
}

/**
 * A run's record of the tool results of an agent's steps, keyed by the step's request (the conversation so far) and
 * the call's id: a resumed case reads a finished step's results here instead of running its tools again.
 */
export interface ToolResultLog {
  get(request: ModelRequest, callId: string): Promise<RecordedToolRun | undefined>;
  put(request: ModelRequest, callId: string, run: RecordedToolRun): Promise<void>;
}

/** A model as a provider's catalog lists it, with per-token prices in dollars when known. */
export interface CatalogEntry {
  id: string;
  inputPrice?: number;
  outputPrice?: number;
}

/** A model API: it declares its request type, id prefix, keys and models, and completes requests. */
export interface Provider {
  name: string;
  requestType: string;
  requestTypeDescription: string;
  /** Ids it serves, such as `ollama/`; `''` claims every id. */
  prefix: string;
  /** Reached only through its own section of the lineup. */
  direct: boolean;
  envKeys: string[];
  efforts: string[];
  catalog(): CatalogEntry[] | Promise<CatalogEntry[]>;
  complete(
    model: ModelSettings & { name: string; id: string },
    request: CompletionRequest,
  ): Promise<ProviderResponse>;
  /**
   * What tells this provider's replies apart beyond the request, for the reply cache (its endpoint's URL); never a
   * key. Absent: the provider's name alone.
   */
  cacheScope?(): string;
  /**
   * The input tokens `complete` would be billed for this request, counted without calling the model; a dry run's
   * estimate uses it, else `estimateRequestTokens` (the rule of `estimateTokens`, plus a few per message).
   */
  countTokens?(
    model: ModelSettings & { name: string; id: string },
    request: CompletionRequest,
  ): number | Promise<number>;
  /**
   * `true` when a reply with no max_tokens sent is cut at a limit the server picks and nobody knows (an
   * OpenAI-compatible endpoint): `compare -n` warns about contenders that set none.
   */
  unknownDefaultMaxTokens?: boolean;
}
