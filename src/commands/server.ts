import pc from 'picocolors';
import { findTemporalBinary, temporalVersionOf } from '../../temporal/binary.ts';
import { userStateDir } from '../dirs.ts';
import { ensureServer, serverStatus, stopServer } from '../../temporal/server.ts';
import type { Io } from '../cli/io.ts';
import type { SuiteFlags } from '../cli/options.ts';
import { runsInFlightAt } from '../client/run-list.ts';

/** `server stop` refused: runs are going on on the embedded server (exit 1; `--force` stops it anyway). */
class ServerInUse extends Error {
  readonly type = 'ServerInUse';
  readonly exitCode = 1;
}

/** `server install|start|stop|status`: the user's embedded Temporal dev server, shared by every project. */
export async function serverCommand(
  action: string,
  flags: SuiteFlags & { force?: boolean },
  io: Io,
): Promise<number> {
  const log = (line: string) => io.stderr.write(pc.dim(line) + '\n');
  const stateDir = userStateDir(io.env);
  switch (action) {
    case 'install': {
      io.stdout.write(`${await findTemporalBinary({ env: io.env, log })}\n`);
      return 0;
    }
    case 'start': {
      const info = await ensureServer({
        stateDir,
        binary: await findTemporalBinary({ env: io.env, log }),
        env: io.env,
        log,
      });
      io.stdout.write(
        `${info.reused ? 'already running' : 'started'}: ${info.address} (pid ${info.pid}), UI ${info.uiUrl}\n`,
      );
      return 0;
    }
    case 'stop': {
      // The server is every project's: a run going on elsewhere would wait for ever for a server this stopped.
      const { running, info } = await serverStatus(stateDir);
      const inFlight = running && info && !flags.force ? await runsInFlightAt(info.address) : [];
      if (inFlight.length > 0) {
        const names = inFlight.map((r) => `  ${r.runId}  ${r.suite}  ${r.project}`);
        throw new ServerInUse(
          `not stopped: ${inFlight.length === 1 ? 'a run is' : `${inFlight.length} runs are`} going on on it:\n` +
            `${names.join('\n')}\n` +
            'cancel them (llm-evals cancel RUN) or let them finish; --force stops the server anyway (they wait for it)',
        );
      }
      const { stopped, pid } = await stopServer(stateDir);
      io.stdout.write(stopped ? `stopped (pid ${pid})\n` : 'not running\n');
      return 0;
    }
    case 'status': {
      const { running, info } = await serverStatus(stateDir);
      if (!running || !info) {
        io.stdout.write(`not running\nstate:   ${stateDir}\n`);
        return 1;
      }
      const version = (await temporalVersionOf(info.binary, io.env)) ?? 'unknown';
      const lines = [
        'running',
        `state:   ${stateDir}`,
        `address: ${info.address}`,
        `UI:      ${info.uiUrl}`,
        `pid:     ${info.pid}`,
        `binary:  ${info.binary}`,
        `version: ${version}`,
      ];
      io.stdout.write(`${lines.join('\n')}\n`);
      return 0;
    }
    default:
      return 2;
  }
}
