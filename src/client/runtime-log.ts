import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type * as WorkerModule from '@temporalio/worker';

/** The worker's SDK: loaded only by commands that serve runs, the others answer without its native runtime. */
export type WorkerSdk = typeof WorkerModule;

let logFile: string | undefined;
let sdk: Promise<WorkerSdk> | undefined;

/**
 * Sends what Temporal's SDK and core print to a log file, so it never garbles the terminal; once per process. The
 * runtime is set up when the worker's SDK is first loaded (loadWorkerSdk), before anything native starts.
 */
export function logTemporalTo(file: string): void {
  logFile ??= file;
}

/** Loads the worker's SDK once, installing its runtime with the log file named by logTemporalTo, if any. */
export function loadWorkerSdk(): Promise<WorkerSdk> {
  return (sdk ??= import('@temporalio/worker').then((loaded) => {
    if (logFile) install(loaded, logFile);
    return loaded;
  }));
}

function install({ DefaultLogger, Runtime }: WorkerSdk, file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const logger = new DefaultLogger('WARN', (entry) => {
    const meta = entry.meta ? ` ${JSON.stringify(entry.meta)}` : '';
    appendFileSync(
      file,
      `${new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString()} ${entry.level} ${entry.message}${meta}\n`,
    );
  });
  Runtime.install({
    // No shutdown signals: Ctrl-C belongs to the command, which stops its worker itself and says how to resume.
    shutdownSignals: [],
    logger,
    telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } },
  });
}
