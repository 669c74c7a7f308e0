import type { CompletionRequest, ModelRequest } from './types.ts';

/**
 * The request a provider gets for what the adapter asked: a conversation keeps its messages and gets, as `user`, the
 * text of its last user message, so a provider that knows only `system` + `user` still sees the question.
 */
export function completionRequestOf(request: ModelRequest): CompletionRequest {
  if (request.user !== undefined) return { ...request, user: request.user };
  const last = request.messages?.findLast((m) => m.role === 'user');
  return { ...request, user: last?.content ?? '' };
}
