/** Tries of one call in all, the first included. */
export const MAX_ATTEMPTS = 5;

/** Longest wait a provider may ask for and still be retried: five minutes. */
export const MAX_RETRY_AFTER_SECONDS = 300;

/** The back-off when a provider says nothing: 1, 2, 4, then 8 seconds. */
export function defaultBackoff(attempt: number): number {
  return Math.min(8, 2 ** Math.max(0, attempt - 1));
}

/** How a failed call is treated: retried (after `delay` seconds if the provider said) or an error outcome. */
export type FailureClass = { retry: true; delay?: number } | { retry: false; reason: string };

/** Classifies a provider failure: 429, 503, 529, 5xx and dropped connections retry; other 4xx and long waits do not. */
export function classifyFailure(status: number | undefined, retryAfter: number | undefined): FailureClass {
  if (retryAfter !== undefined && retryAfter > MAX_RETRY_AFTER_SECONDS) {
    return {
      retry: false,
      reason: `the provider asked to wait ${Math.round(retryAfter)} s, more than ${MAX_RETRY_AFTER_SECONDS} s`,
    };
  }
  if (status === undefined || status === 429 || status >= 500) {
    return retryAfter === undefined ? { retry: true } : { retry: true, delay: retryAfter };
  }
  return { retry: false, reason: `HTTP ${status} is not retried` };
}

/** How a connection failed before any answer: nothing listened, or the socket was closed under the call. */
export type ConnectionFailure = 'connection refused' | 'connection reset';

// Node's and undici's words for a socket the other side closed: `read ECONNRESET`, `socket hang up`, `other side closed`.
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const RESET_WORDS = /ECONNRESET|EPIPE|socket hang up|other side closed/i;

/**
 * Whether a call failed at the connection (one of its causes, up to five deep, says so): refused, or reset or hung up
 * mid-call; the openai client's `APIConnectionError` without a cause counts as a reset, its timeout as neither. A
 * provider being restarted looks like this for a few seconds: a transient failure, retried like a 503, and the
 * endpoint is closed for every call meanwhile, not only for the model that saw it.
 */
export function connectionFailureOf(error: unknown): ConnectionFailure | undefined {
  let node: unknown = error;
  for (let depth = 0; depth < 5 && node instanceof Error; depth++) {
    const code = (node as Error & { code?: unknown }).code;
    if (code === 'ECONNREFUSED' || /ECONNREFUSED/.test(node.message)) return 'connection refused';
    if ((typeof code === 'string' && RESET_CODES.has(code)) || RESET_WORDS.test(node.message))
      return 'connection reset';
    if (node.cause === undefined && node.constructor.name === 'APIConnectionError') return 'connection reset';
    node = node.cause;
  }
  return undefined;
}

/** Parses a `Retry-After` header (seconds or an HTTP date) into seconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now: number): number | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

/** Tries of sending one experiment before its problem is reported with the run's results. */
export const TRACK_ATTEMPTS = 3;
