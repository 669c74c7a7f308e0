import type {
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { CompletionRequest, Message, ToolCallMade, ToolChoice, ToolDefinition } from '../api/types.ts';

/**
 * The codec between our conversation and tool shapes and OpenAI's chat-completions wire format (which OpenRouter and
 * OpenAI-compatible endpoints pass through). Pure: request in, wire body fields out; wire message in, calls out.
 */

/** One of our messages as the wire spells it: tool calls as `function` calls with their arguments as JSON text. */
export function wireMessage(message: Message): ChatCompletionMessageParam {
  const content = message.content ?? '';
  switch (message.role) {
    case 'system':
      return { role: 'system', content };
    case 'user':
      return { role: 'user', content };
    case 'tool':
      return { role: 'tool', content, tool_call_id: message.toolCallId ?? '' };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content ?? (message.toolCalls?.length ? null : ''),
        ...(message.toolCalls?.length
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: {
                  name: call.name,
                  arguments: call.argumentsText ?? JSON.stringify(call.arguments),
                },
              })),
            }
          : {}),
      };
  }
}

/** The request's messages on the wire: `system` first when set, then the conversation, else the user's text. */
export function wireMessages(request: CompletionRequest): ChatCompletionMessageParam[] {
  const system = request.system ? [{ role: 'system' as const, content: request.system }] : [];
  if (request.messages) return [...system, ...request.messages.map(wireMessage)];
  return [...system, { role: 'user', content: request.user }];
}

/** Tool definitions as `function` tools. */
export function wireTools(tools: readonly ToolDefinition[]): ChatCompletionTool[] {
  return tools.map(({ name, description, parameters }) => ({
    type: 'function',
    function: { name, ...(description !== undefined ? { description } : {}), parameters },
  }));
}

/** A tool choice on the wire: the words as they are, a named tool as a `function` choice. */
export function wireToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** The body fields a request's tools add: none without tools. */
export function toolFields(request: CompletionRequest): {
  tools?: ChatCompletionTool[];
  tool_choice?: ChatCompletionToolChoiceOption;
} {
  return {
    ...(request.tools?.length ? { tools: wireTools(request.tools) } : {}),
    ...(request.toolChoice !== undefined ? { tool_choice: wireToolChoice(request.toolChoice) } : {}),
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The tool calls of a reply's message, read loosely (servers differ): `function` calls with a name; arguments that
 * are not a JSON object's text are kept as `argumentsText` beside empty arguments, for the scorer to see.
 */
export function toolCallsOf(message: unknown): ToolCallMade[] {
  const calls = isRecord(message) ? message.tool_calls : undefined;
  if (!Array.isArray(calls)) return [];
  return calls.flatMap((call: unknown, index): ToolCallMade[] => {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
    if (!fn || typeof fn.name !== 'string') return [];
    const id = isRecord(call) && typeof call.id === 'string' ? call.id : `call_${index}`;
    const text = fn.arguments;
    if (isRecord(text)) return [{ id, name: fn.name, arguments: text }];
    const raw = typeof text === 'string' ? text : '';
    try {
      const parsed: unknown = raw.trim() === '' ? {} : JSON.parse(raw);
      if (isRecord(parsed)) return [{ id, name: fn.name, arguments: parsed }];
    } catch {
      // Not JSON: kept as text below.
    }
    return [{ id, name: fn.name, arguments: {}, argumentsText: raw }];
  });
}
