import pc from 'picocolors';
import { findTemporalBinary, temporalVersionOf } from '../../temporal/binary.ts';
import { userStateDir } from '../dirs.ts';
import { ensureServer, serverStatus, stopServer } from '../../temporal/server.ts';
import type { Io } from '../cli/io.ts';
import type { SuiteFlags } from '../cli/options.ts';

/** `server install|start|stop|status` (D4): the user's embedded Temporal dev server, shared by every project. */
export async function serverCommand(action: string, _flags: SuiteFlags, io: Io): Promise<number> {
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
