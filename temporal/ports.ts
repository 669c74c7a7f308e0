import { createServer } from 'node:net';
import { TemporalPortInvalid, TemporalPortTaken } from './errors.ts';

/** The host the embedded server binds: local only. */
export const HOST = '127.0.0.1';

/** Temporal's own default gRPC port, used unless a port was remembered or asked for. */
export const DEFAULT_PORT = 7233;

/** The gRPC and Web UI ports of an embedded server. */
export interface Ports {
  port: number;
  uiPort: number;
}

/** What decides the ports: ones asked for (option or LLM_EVALS_TEMPORAL_PORT) must be free; others may move. */
export interface PortWish {
  port?: number;
  uiPort?: number;
  remembered?: Ports;
  log?: (line: string) => void;
}

/**
 * The ports to start on: those asked for (else {@link TemporalPortTaken}), else the remembered ones, else 7233 and
 * 8233; a port that is not asked for and is held by another program is replaced by a free one.
 */
export async function choosePorts(wish: PortWish): Promise<Ports> {
  if (wish.port !== undefined) await mustBeFree(wish.port, 'gRPC');
  const wanted = wish.port ?? wish.remembered?.port ?? DEFAULT_PORT;
  const port = wish.port ?? (await freeOr(wanted));
  if (wish.uiPort !== undefined || wish.port !== undefined) {
    const uiPort = wish.uiPort ?? port + 1000;
    await mustBeFree(uiPort, 'UI');
    return { port, uiPort };
  }
  const wantedUi = port === wanted ? (wish.remembered?.uiPort ?? port + 1000) : port + 1000;
  const uiPort = wantedUi <= 65535 && wantedUi !== port ? await freeOr(wantedUi, port) : await freePort(port);
  if (port !== wanted || uiPort !== wantedUi) {
    const held = port !== wanted ? `Port ${wanted}` : `The UI port ${wantedUi}`;
    wish.log?.(
      `${held} is held by another program; the Temporal dev server moves to ${port} (UI ${uiPort}).`,
    );
  }
  return { port, uiPort };
}

/** LLM_EVALS_TEMPORAL_PORT as a port number; undefined when unset, {@link TemporalPortInvalid} when not a port. */
export function parsePort(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 64535) throw new TemporalPortInvalid(value);
  return port;
}

async function mustBeFree(port: number, role: 'gRPC' | 'UI'): Promise<void> {
  if (!(await isPortFree(port))) throw new TemporalPortTaken(port, role);
}

async function freeOr(port: number, not?: number): Promise<number> {
  return (await isPortFree(port)) ? port : freePort(not);
}

/** A port the system reports free (bind to port 0), other than `not`. */
async function freePort(not?: number): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((ok, fail) => {
      const probe = createServer();
      probe.once('error', fail);
      probe.listen({ port: 0, host: HOST, exclusive: true }, () => {
        const address = probe.address();
        probe.close(() =>
          typeof address === 'object' && address ? ok(address.port) : fail(new Error('no port')),
        );
      });
    });
    if (port !== not) return port;
  }
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? ok(false) : fail(err)));
    probe.listen({ port, host: HOST, exclusive: true }, () => probe.close(() => ok(true)));
  });
}
