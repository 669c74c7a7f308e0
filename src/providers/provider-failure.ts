import type { APIError } from 'openai';
import { connectionFailureOf, parseRetryAfter } from '../core/retry.ts';
import { ProviderError } from './errors.ts';

/** Who failed: the provider and the model id, for the ProviderError's fields, and the key to keep out of its message. */
export interface FailedCall {
  provider: string;
  model: string;
  baseUrl: string;
  key?: string;
}

// Key-shaped words (`sk-…`, OpenAI's masked `sk-proj-****abcd` included): a 401's message may quote the key it got.
const KEY_LIKE = /\b(?:sk|rk|pk)-[\w*.-]{6,}/g;

/** A provider's error text with the key, and anything shaped like one, taken out: it goes into results and logs. */
export function redact(text: string, key?: string): string {
  const plain = key ? text.split(key).join('[key]') : text;
  return plain.replace(KEY_LIKE, '[key]');
}

/** Whether a failure (or one of its causes) names a host the resolver does not know (`getaddrinfo ENOTFOUND`). */
function hostNotFound(error: unknown): boolean {
  let node: unknown = error;
  for (let depth = 0; depth < 5 && node instanceof Error; depth++) {
    const code = (node as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || /ENOTFOUND/.test(node.message)) return true;
    node = node.cause;
  }
  return false;
}

/** The innermost cause's words: fetch hides `connect ECONNREFUSED …` two levels down. */
export function rootCause(error: unknown): string | undefined {
  let node: unknown = error;
  let said: string | undefined;
  for (let depth = 0; depth < 5 && node instanceof Error; depth++) {
    if (node.message) said = node.message;
    node = node.cause;
  }
  return said;
}

/** Seconds the provider asked to wait: `Retry-After` (seconds or a date), else OpenAI's `retry-after-ms`. */
export function retryAfterOf(headers: Headers | undefined, now = Date.now()): number | undefined {
  const seconds = parseRetryAfter(headers?.get('retry-after'), now);
  if (seconds !== undefined) return seconds;
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  return Number.isFinite(ms) && ms >= 0 ? ms / 1000 : undefined;
}

/**
 * Turns whatever a chat-completions call threw into a ProviderError: the HTTP status and Retry-After when the
 * server answered, no status when none came back (so the activity retries it as a dropped connection).
 */
export function toProviderError(
  error: unknown,
  call: FailedCall,
  apiError: abstract new (...args: never[]) => APIError,
): ProviderError {
  if (error instanceof ProviderError) return error;
  const { provider, model, baseUrl } = call;
  const { status, headers } = error instanceof apiError ? error : {};
  if (status !== undefined) {
    // The client's message starts with the status already ("401 No auth credentials found").
    const detail = redact((error as Error).message.replace(new RegExp(`^${status}\\s*`), ''), call.key);
    return new ProviderError(
      `HTTP ${status}: ${detail || 'no body'}`,
      provider,
      model,
      status,
      retryAfterOf(headers),
      {
        cause: error,
      },
    );
  }
  // No host has the name: no retry can mend it, and five of them per case would only cost time (37 s a case).
  if (hostNotFound(error)) {
    return new ProviderError(
      `cannot connect to ${baseUrl} (host not found)`,
      provider,
      model,
      undefined,
      undefined,
      {
        cause: error,
        retryable: false,
      },
    );
  }
  // Nothing listens at the address: a provider restarting, for a few seconds. Retried like a 503 (its cause says
  // so: `connectionFailureOf`), and an error only once the retries are spent; the checks before a run refuse an
  // endpoint that is closed from the start.
  if (connectionFailureOf(error) === 'connection refused') {
    return new ProviderError(
      `cannot connect to ${baseUrl} (connection refused)`,
      provider,
      model,
      undefined,
      undefined,
      {
        cause: error,
      },
    );
  }
  const said = redact(rootCause(error) ?? String(error), call.key);
  return new ProviderError(`no reply from ${baseUrl}: ${said}`, provider, model, undefined, undefined, {
    cause: error,
  });
}

/** The error a reply reports in a 200 body (OpenRouter does this when the upstream model fails mid-way). */
export function errorInBody(body: unknown, call: FailedCall): ProviderError | undefined {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error !== 'object') return undefined;
  const status = typeof error.code === 'number' && error.code >= 400 ? error.code : undefined;
  const text = redact(typeof error.message === 'string' ? error.message : JSON.stringify(error), call.key);
  return new ProviderError(
    `the reply carries an error${status ? ` (${status})` : ''}: ${text}`,
    call.provider,
    call.model,
    status,
  );
}
