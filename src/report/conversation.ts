import { MessageSchema, type Message } from '../api/types.ts';

/** The conversation of a case whose input is an `input.json` (`{ "messages": [...] }`); undefined for any other input. */
export function conversationOf(input: string): Message[] | undefined {
  if (!input.trimStart().startsWith('{')) return undefined;
  try {
    const value = JSON.parse(input) as { messages?: unknown } | null;
    const parsed = MessageSchema.array().min(1).safeParse(value?.messages);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** One message as a line of text: its role, the tool call it answers or the calls it makes, and its text. */
function messageLine(message: Message): string {
  const calls = (message.toolCalls ?? []).map((c) => `${c.name}(${JSON.stringify(c.arguments)})`);
  const role = message.toolCallId !== undefined ? `${message.role} (${message.toolCallId})` : message.role;
  const parts = [message.content ?? '', ...(calls.length ? [`→ ${calls.join(', ')}`] : [])].filter(Boolean);
  return `${role}: ${parts.join(' ')}`;
}

/** A conversation as text, a message a line: `user: …`, `assistant: → weather({"city":"Paris"})`, `tool (call_1): …`. */
export function conversationText(messages: readonly Message[]): string {
  return messages.map(messageLine).join('\n');
}

/** A conversation in one short line for a table: how many messages, and the last user message's start. */
export function conversationSummary(messages: readonly Message[], width = 40): string {
  const last = messages.findLast((m) => m.role === 'user')?.content ?? '';
  const flat = last.replace(/\s+/g, ' ').trim();
  const start = flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
  const count = `${messages.length} message${messages.length === 1 ? '' : 's'}`;
  return start ? `${count}, user: ${JSON.stringify(start)}` : count;
}
