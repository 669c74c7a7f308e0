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
export function inOurWords(error: unknown): TemporalUnavailable | undefined {
  const text = error instanceof Error ? error.message : String(error);
  const match = NAMESPACE_UNAVAILABLE.exec(text);
  if (!match) return undefined;
  const detail = match[2] ? ` (${match[2]})` : '';
  return new TemporalUnavailable(
    `the Temporal server stopped answering while this command was starting: namespace ${match[1]} could not be ` +
      `read${detail}. Start it again (llm-evals server start, or let the next command start the embedded one) ` +
      'and run the command again; a run already started goes on where it stopped.',
    { cause: error },
  );
}
