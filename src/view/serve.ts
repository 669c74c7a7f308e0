import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createViewApp, type ViewOptions } from './app.ts';

import { LOOPBACK } from './addresses.ts';

export { LOOPBACK };

/** A view being served: its address, and how to stop it. */
export interface ServedView {
  /** `http://HOST:PORT` (without the token). */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** Serves the view's app on `host:port` (port 0: any free one) until closed. */
export async function serveView(
  host: string,
  port: number,
  options: Omit<ViewOptions, 'hosts'>,
): Promise<ServedView> {
  const loopback = LOOPBACK.includes(host);
  // The accepted Host headers are known once the port is; a loopback view refuses any other (DNS rebinding).
  const hosts: string[] = [];
  const app = createViewApp({ ...options, ...(loopback ? { hosts } : {}) });
  const server = serve({ fetch: app.fetch, hostname: host, port });
  const bound = await new Promise<AddressInfo>((resolve, reject) => {
    server.once('listening', () => resolve(server.address() as AddressInfo));
    server.once('error', reject);
  });
  hosts.push(...LOOPBACK.map((h) => `${h.includes(':') ? `[${h}]` : h}:${bound.port}`));
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    origin: `http://${shown}:${bound.port}`,
    port: bound.port,
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
