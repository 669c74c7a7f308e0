/** Base of every error raised while finding, building, starting or reaching a Temporal server. */
export abstract class TemporalSetupError extends Error {
  /** Stable identifier of the condition; match on this, not on the message. */
  abstract readonly code: string;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Thrown when no Temporal CLI binary is found and none can be built (no Go, or building disabled). */
export class TemporalBinaryNotFound extends TemporalSetupError {
  readonly code = 'TemporalBinaryNotFound';

  constructor(readonly cacheDir: string) {
    super(
      [
        'The Temporal CLI (`temporal`) was not found. Do one of:',
        `  - install Go (https://go.dev/dl/) and rerun: llm-evals builds the CLI once into ${cacheDir}`,
        '  - put a `temporal` binary on your PATH (https://docs.temporal.io/cli#install)',
        '  - set LLM_EVALS_TEMPORAL_BIN to the path of a `temporal` binary',
      ].join('\n'),
    );
  }
}

/** Thrown when LLM_EVALS_TEMPORAL_BIN is set but does not name an executable file. */
export class TemporalBinaryInvalid extends TemporalSetupError {
  readonly code = 'TemporalBinaryInvalid';

  constructor(
    readonly variable: string,
    readonly value: string,
  ) {
    super(`${variable}=${value} does not name an executable file; fix the path or unset ${variable}.`);
  }
}

/** Thrown when `go install` of the Temporal CLI exits with an error. */
export class TemporalBuildFailed extends TemporalSetupError {
  readonly code = 'TemporalBuildFailed';

  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`Building the Temporal CLI failed (exit ${String(exitCode)}): ${command}\n${stderr.trimEnd()}`);
  }
}

/** Thrown when the port wanted for the embedded server is held by a program other than this state folder's server. */
export class TemporalPortTaken extends TemporalSetupError {
  readonly code = 'TemporalPortTaken';

  constructor(
    readonly port: number,
    readonly role: 'gRPC' | 'UI',
  ) {
    super(
      `Port ${port} on 127.0.0.1 (Temporal ${role}) is already in use by another program. ` +
        'Choose another port with LLM_EVALS_TEMPORAL_PORT=<port> (the UI uses port + 1000), ' +
        'or use a running server with TEMPORAL_ADDRESS=<host:port>.',
    );
  }
}

/** Thrown when LLM_EVALS_TEMPORAL_PORT (or a port option) is not a usable TCP port number. */
export class TemporalPortInvalid extends TemporalSetupError {
  readonly code = 'TemporalPortInvalid';

  constructor(readonly value: string) {
    super(
      `Invalid Temporal port ${JSON.stringify(value)}: use a whole number from 1 to 64535 (UI = port + 1000).`,
    );
  }
}

/** Thrown when the embedded server process exits before it answers; carries the end of its log. */
export class TemporalServerExited extends TemporalSetupError {
  readonly code = 'TemporalServerExited';

  constructor(
    readonly exitCode: number | null,
    readonly logFile: string,
    readonly logTail: string,
  ) {
    super(
      `The Temporal dev server exited (code ${String(exitCode)}) before it was ready. End of ${logFile}:\n${logTail}`,
    );
  }
}

/** Thrown when the embedded server is still running but does not answer within the readiness timeout. */
export class TemporalServerNotReady extends TemporalSetupError {
  readonly code = 'TemporalServerNotReady';

  constructor(
    readonly address: string,
    readonly timeoutMs: number,
    readonly logTail: string,
  ) {
    super(
      `The Temporal dev server at ${address} did not answer within ${timeoutMs / 1000} s. End of its log:\n${logTail}`,
    );
  }
}

/** Thrown when a Temporal server at a given address (e.g. TEMPORAL_ADDRESS) does not answer in time. */
export class TemporalUnreachable extends TemporalSetupError {
  readonly code = 'TemporalUnreachable';

  constructor(
    readonly address: string,
    readonly timeoutMs: number,
    cause: unknown,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Cannot reach the Temporal server at ${address} within ${timeoutMs / 1000} s (${reason}). ` +
        'Check that it is running and that the address, TLS and API key settings are right.',
      { cause },
    );
  }
}
