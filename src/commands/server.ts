import pc from 'picocolors';
import { findTemporalBinary } from '../../temporal/binary.ts';
import { ensureServer, serverStatus, stopServer } from '../../temporal/server.ts';
import { stateDirOf } from '../temporal/connect.ts';
import type { Io } from './io.ts';
import { projectOf } from './open-suite.ts';
import type { SuiteFlags } from './options.ts';

/** `server install|start|stop|status` (D4): the embedded Temporal dev server of this project. */
export async function serverCommand(action: string, flags: SuiteFlags, io: Io): Promise<number> {
  const log = (line: string) => io.stderr.write(pc.dim(line) + '\n');
  const stateDir = stateDirOf(projectOf(flags, io));
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
      io.stdout.write(
        running && info
          ? `running: ${info.address} (pid ${info.pid}), UI ${info.uiUrl}, data ${info.dbFile}\n`
          : `not running (${stateDir})\n`,
      );
      return running ? 0 : 1;
    }
    default:
      return 2;
  }
}
