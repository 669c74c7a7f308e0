import { describe, expect, it } from 'vitest';
import { connectionFailureOf } from '../../src/core/retry.ts';

/** An error with a Node-style `code`, and a cause. */
function coded(message: string, code?: string, cause?: unknown): Error {
  return Object.assign(new Error(message, { cause }), code ? { code } : {});
}

/** The openai client's class, by name: what the check reads of it. */
class APIConnectionError extends Error {}
class APIConnectionTimeoutError extends APIConnectionError {}

describe('connectionFailureOf: a refused or reset connection is transient (issue 44)', () => {
  it.each([
    [
      'fetch failed ← connect ECONNREFUSED',
      new TypeError('fetch failed', { cause: coded('connect ECONNREFUSED 127.0.0.1:9', 'ECONNREFUSED') }),
      'connection refused',
    ],
    ['a custom adapter’s own refusal', coded('connect ECONNREFUSED ::1:80'), 'connection refused'],
    [
      'openai’s Connection error. ← fetch failed ← refused',
      new APIConnectionError('Connection error.', {
        cause: new TypeError('fetch failed', { cause: coded('x', 'ECONNREFUSED') }),
      }),
      'connection refused',
    ],
    ['read ECONNRESET', coded('read ECONNRESET', 'ECONNRESET'), 'connection reset'],
    ['socket hang up', coded('socket hang up'), 'connection reset'],
    [
      'undici: other side closed',
      new TypeError('fetch failed', { cause: coded('other side closed', 'UND_ERR_SOCKET') }),
      'connection reset',
    ],
    [
      'openai’s Connection error. with no cause',
      new APIConnectionError('Connection error.'),
      'connection reset',
    ],
    ['openai’s timeout', new APIConnectionTimeoutError('Request timed out.'), undefined],
    ['a host name that does not resolve', coded('getaddrinfo ENOTFOUND x.invalid', 'ENOTFOUND'), undefined],
    ['an HTTP error', new Error('HTTP 503: overloaded'), undefined],
    ['not an error', 'ECONNREFUSED', undefined],
    ['nothing', undefined, undefined],
  ])('%s → %s', (_, error, want) => {
    expect(connectionFailureOf(error)).toBe(want);
  });
});
