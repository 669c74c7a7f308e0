import { createServer } from 'node:net';
import { Client, type Connection } from '@temporalio/client';
import { ClosableConnection } from '../../src/client/closable-connection.ts';
import { afterAll, beforeAll, inject } from 'vitest';
import type { RunHeader } from '../../src/core/snapshot.ts';

/** The address (`127.0.0.1:PORT`) of the dev server that test/global-setup.ts starts for the whole run. */
export function temporalAddress(): string {
  return inject('temporalAddress');
}

/** The path of the Temporal CLI binary the shared dev server runs, for tests that start their own server. */
export function temporalBinary(): string {
  return inject('temporalBinary');
}

/**
 * A free port P on 127.0.0.1 whose UI port P + 1000 is free too, for a dev server of a test's own. Both lie below the
 * ephemeral range (32768 up on Linux): a server killed and started again on them in a test finds them free, where a
 * port the system handed out could meanwhile be the local end of some other test's connection.
 */
export async function freeServerPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 11_000);
    if ((await listenOn(port)) !== undefined && (await listenOn(port + 1000)) !== undefined) return port;
  }
  throw new Error('No free port P in 20000-30999 with P + 1000 also free on 127.0.0.1 after 50 tries.');
}

/** Bind `port` (0 = any) on 127.0.0.1, release it, and return the bound port, or undefined if it was taken. */
function listenOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(undefined));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : undefined));
    });
  });
}

/** A run's header for tests that start runs on the server directly, outside any suite. */
export const RUN_HEADER: RunHeader = {
  createdAt: new Date(0).toISOString(),
  suite: { name: 'test', project: '/nowhere' },
  options: {},
  settings: { parallelism: 1, concurrency: 1 },
  metrics: [],
  refused: [],
};

/** `fn` with a client of the server at `address`, its connection closed after. */
export async function withClient<T>(address: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const connection = await ClosableConnection.connect({ address });
  try {
    return await fn(new Client({ connection }));
  } finally {
    await connection.close();
  }
}

/** A client of the shared test server for the tests of one file: connected before them, closed after them. */
export function testClient(): () => Client {
  let connection: Connection | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    connection = await ClosableConnection.connect({ address: temporalAddress() });
    client = new Client({ connection });
  });
  afterAll(async () => {
    await connection?.close();
  });
  return () => {
    if (!client) throw new Error("testClient(): no client before the file's tests start");
    return client;
  };
}
