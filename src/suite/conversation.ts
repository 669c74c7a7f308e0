import type { z } from 'zod';
import { ExpectedToolCallsSchema } from '../agent/core/trajectory.ts';
import { MESSAGE_ROLES, MessageSchema, type Json, type Message } from '../api/types.ts';
import type { CaseProblem } from './case-problem.ts';

/** A zod issue's path as a key a user can find in the file: `messages[2].role`. */
export function keyOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (key, part) =>
      typeof part === 'number' ? `${key}[${part}]` : key ? `${key}.${String(part)}` : String(part),
    '',
  );
}

const valueAt = (value: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (at, part) =>
      at !== null && typeof at === 'object' ? (at as Record<PropertyKey, unknown>)[part] : undefined,
    value,
  );

/** The first issue of a failed parse as one problem naming file, key and value. */
function problemOf(
  file: string,
  value: unknown,
  error: z.ZodError,
  prefix: (string | number)[],
): CaseProblem {
  const issue = error.issues[0]!;
  const path = [...prefix, ...issue.path];
  const key = keyOf(path);
  if (issue.code === 'invalid_value' && key.endsWith('.role'))
    return {
      file,
      key,
      problem: `unknown role ${JSON.stringify(valueAt(value, path))} (roles: ${MESSAGE_ROLES.join(', ')})`,
    };
  if (issue.code === 'unrecognized_keys')
    return { file, key: keyOf([...path, issue.keys[0]!]), problem: 'not a key this file knows' };
  const got = valueAt(value, path);
  return {
    file,
    key,
    problem: `${issue.message} (got ${got === undefined ? 'nothing' : JSON.stringify(got)})`,
  };
}

/**
 * The conversation of an `input.json`: `{ "messages": [...] }` with roles system, user, assistant and tool. A file
 * that is not one adds a problem naming the key and returns undefined.
 */
export function readConversation(file: string, text: string, problems: CaseProblem[]): Message[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    problems.push({ file, problem: `not valid JSON (${(error as Error).message})` });
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !('messages' in value)) {
    problems.push({ file, key: 'messages', problem: 'missing: a conversation is { "messages": [...] }' });
    return undefined;
  }
  const messages = value.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    problems.push({ file, key: 'messages', problem: 'expected a list of at least one message' });
    return undefined;
  }
  const parsed = MessageSchema.array().safeParse(messages);
  if (!parsed.success) {
    problems.push(problemOf(file, value, parsed.error, ['messages']));
    return undefined;
  }
  return parsed.data;
}

/** Checks an expected answer's `tool_calls`, when it has one: a list of `{ name, arguments }`. */
export function checkExpectedToolCalls(
  file: string,
  expected: Json | undefined,
  problems: CaseProblem[],
): void {
  if (
    expected === null ||
    typeof expected !== 'object' ||
    Array.isArray(expected) ||
    !('tool_calls' in expected)
  )
    return;
  const parsed = ExpectedToolCallsSchema.safeParse(expected.tool_calls);
  if (!parsed.success) problems.push(problemOf(file, expected, parsed.error, ['tool_calls']));
}
