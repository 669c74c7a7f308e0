import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';

let installed = false;

/** Sends what Temporal's SDK and core print to a log file, so it never garbles the terminal; once per process. */
export function logTemporalTo(file: string): void {
  if (installed) return;
  installed = true;
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
