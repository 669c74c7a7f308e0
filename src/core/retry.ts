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
