import {
  Connection,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
  type ConnectionOptions,
} from '@temporalio/client';

/**
 * A connection whose calls stop being retried once it is closed. The SDK retries a call that failed as unavailable
 * after a delay, on its channel: a call still in flight when the connection closed (a query the server held for 30 s,
 * then gave up on) was retried on the closed channel, and the retry threw "Channel has been shut down" from its timer,
 * an uncaught exception that ends a process still running (the view, a test's). Here such a call fails like any call
 * the server did not answer, to whoever waits for it. Retries follow Temporal's default policy otherwise; options that
 * bring their own interceptors are refused.
 */
export class ClosableConnection extends Connection {
  private closing?: { closed: boolean };

  static override async connect(options: ConnectionOptions = {}): Promise<ClosableConnection> {
    if (options.interceptors) throw new Error('a ClosableConnection makes its own interceptors');
    const closing = { closed: false };
    const policy = defaultGrpcRetryOptions();
    const retryableDecider: typeof policy.retryableDecider = (attempt, status) =>
      !closing.closed && policy.retryableDecider(attempt, status);
    const connection = (await super.connect({
      ...options,
      interceptors: [makeGrpcRetryInterceptor({ ...policy, retryableDecider })],
    })) as ClosableConnection;
    connection.closing = closing;
    return connection;
  }

  override async close(): Promise<void> {
    if (this.closing) this.closing.closed = true;
    await super.close();
  }
}
