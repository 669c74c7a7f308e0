import { connect } from 'node:net';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Whether a TCP connection to `host:port` opens within `timeoutMs`: nothing when it does, else the reason why not. */
export function tcpProbe(to: { host: string; port: number }, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect(to);
    const done = (reason?: string) => {
      socket.destroy();
      resolve(reason);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs / 1000} s`));
    socket.once('connect', () => done());
    socket.once('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' ? 'connection refused' : message(error)),
    );
  });
}
