/** Thrown by a provider when a call fails: the HTTP status when there was one, and how long the provider asked to wait. */
export class ProviderError extends Error {
  readonly type = 'ProviderError';

  constructor(
    message: string,
    readonly provider: string,
    readonly model: string,
    readonly status?: number,
    /** Seconds from a `Retry-After` header, when the provider sent one. */
    readonly retryAfter?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
