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
    options?: { cause?: unknown; retryable?: boolean },
  ) {
    super(message, options);
    if (options?.retryable === false) this.retryable = false;
  }

  /** `false` for a failure that no retry can mend, whatever its status (a provider that cannot serve the call at all). */
  retryable?: boolean;
}
