/** Thrown in place of the SDK's words when the Temporal server stopped answering as a command began (exit 1). */
export class TemporalUnavailable extends Error {
  readonly type = 'TemporalUnavailable';
  readonly exitCode = 1;
}

// The worker's native connection says a server that went away mid-start like this, in Rust's debug format.
const NAMESPACE_UNAVAILABLE =
  /Namespace (\S+) was not found or otherwise could not be described: Status \{ code: Unavailable, message: "([^"]*)"/;

/**
 * The error a user reads for one the SDK raised when the server stopped answering as a command began (a raw
 * `Namespace default was not found … Status { code: Unavailable … }`); `undefined` for any other error.
 */
export function inOurWords(error: unknown): TemporalUnavailable | TemporalRefused | undefined {
  const text = error instanceof Error ? error.message : String(error);
  const match = NAMESPACE_UNAVAILABLE.exec(text);
  if (!match) return withServerReason(error);
  const detail = match[2] ? ` (${match[2]})` : '';
  return new TemporalUnavailable(
    `the Temporal server stopped answering while this command was starting: namespace ${match[1]} could not be ` +
      `read${detail}. Start it again (llm-evals server start, or let the next command start the embedded one) ` +
      'and run the command again; a run already started goes on where it stopped.',
    { cause: error },
  );
}

/** A request the Temporal server refused, with the reason its SDK's title ("Failed to start Workflow") leaves out. */
export class TemporalRefused extends Error {
  readonly type = 'TemporalRefused';
  readonly exitCode = 1;
}

/** gRPC's status codes, as a user reads them. */
const STATUS: Record<number, string> = {
  3: 'invalid argument',
  4: 'deadline exceeded',
  5: 'not found',
  6: 'already exists',
  7: 'permission denied',
  8: 'resource exhausted',
  9: 'failed precondition',
  14: 'unavailable',
  16: 'unauthenticated',
};

/**
 * The error a user reads for a ServiceError of Temporal's client: its title and the server's own reason (the status
 * and its details, e.g. a payload over the blob size limit); `undefined` for any other error or one without a reason.
 */
export function withServerReason(error: unknown): TemporalRefused | undefined {
  if (!(error instanceof Error) || error.name !== 'ServiceError') return undefined;
  const cause = error.cause as { code?: unknown; details?: unknown; message?: unknown } | undefined;
  const detail = [cause?.details, cause?.message].find((d): d is string => typeof d === 'string' && d !== '');
  if (!detail) return undefined;
  const status = typeof cause?.code === 'number' ? STATUS[cause.code] : undefined;
  const hint = /blob|size limit|exceeds/i.test(detail)
    ? ' The run is over what the server takes in one request: fewer contenders or datasets per run, or raise the ' +
      "server's limits."
    : '';
  return new TemporalRefused(
    `${error.message}: the Temporal server refused it${status ? ` (${status})` : ''}: ${detail}.${hint}`,
    { cause: error },
  );
}
