import { readFileSync } from 'node:fs';
import { Client, Connection, type TLSConfig } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { findTemporalBinary } from '../../temporal/binary.ts';
import { userStateDir } from '../dirs.ts';
import { checkReachable, ensureServer, serverStatus } from '../../temporal/server.ts';
import { engineTracing } from './engine-tracing.ts';
import { Runs } from './runs.ts';
import { Schedules } from './schedules.ts';
import { loadWorkerSdk } from './runtime-log.ts';

/** A live link to Temporal: a client for starting and watching runs, and a native connection for workers. */
export interface TemporalLink {
  address: string;
  namespace: string;
  /** The Web UI's base address, when known. */
  uiUrl?: string;
  embedded: boolean;
  client: Client;
  /** Every operation on runs: what commands use instead of the client. */
  runs: Runs;
  /** Every operation on schedules (D5). */
  schedules: Schedules;
  nativeConnection(): Promise<NativeConnection>;
  close(): Promise<void>;
}

/** Where to reach Temporal: `TEMPORAL_ADDRESS` and friends (the names Temporal's own CLI uses), else the embedded server. */
export interface LinkOptions {
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
}

function tlsFrom(env: NodeJS.ProcessEnv): TLSConfig | undefined {
  const cert = env.TEMPORAL_TLS_CERT;
  const key = env.TEMPORAL_TLS_KEY;
  const ca = env.TEMPORAL_TLS_CA;
  if (!cert && !key && !ca && env.TEMPORAL_TLS !== 'true' && !env.TEMPORAL_API_KEY) return undefined;
  return {
    ...(env.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: env.TEMPORAL_TLS_SERVER_NAME } : {}),
    ...(ca ? { serverRootCACertificate: readFileSync(ca) } : {}),
    ...(cert && key ? { clientCertPair: { crt: readFileSync(cert), key: readFileSync(key) } } : {}),
  };
}

/** Connects to the configured cluster, or starts (or reuses) the user's embedded dev server, shared by every project. */
export async function linkTemporal(options: LinkOptions): Promise<TemporalLink> {
  const { env } = options;
  const namespace = env.TEMPORAL_NAMESPACE ?? 'default';
  let address = env.TEMPORAL_ADDRESS;
  let uiUrl: string | undefined = env.TEMPORAL_UI_URL;
  const tls = tlsFrom(env);
  const apiKey = env.TEMPORAL_API_KEY;
  if (address) {
    await checkReachable(address, {
      timeoutMs: 10_000,
      ...(tls ? { tls } : {}),
      ...(apiKey ? { apiKey } : {}),
    });
  } else {
    const binary = await findTemporalBinary({ env, log: options.log });
    const server = await ensureServer({
      stateDir: userStateDir(env),
      binary,
      env,
      log: options.log,
    });
    address = server.address;
    uiUrl = server.uiUrl;
  }
  const connection = await Connection.connect({
    address,
    ...(tls ? { tls } : {}),
    ...(apiKey ? { apiKey } : {}),
  });
  let native: Promise<NativeConnection> | undefined;
  const target = address;
  const tracing = await engineTracing(env);
  const client = new Client({
    connection,
    namespace,
    ...(tracing ? { interceptors: { workflow: [tracing.clientInterceptor()] } } : {}),
  });
  const runs = new Runs(client);
  return {
    address,
    namespace,
    ...(uiUrl ? { uiUrl } : {}),
    embedded: !env.TEMPORAL_ADDRESS,
    client,
    runs,
    schedules: new Schedules(client, runs),
    nativeConnection: () =>
      (native ??= loadWorkerSdk().then(({ NativeConnection }) =>
        NativeConnection.connect({
          address: target,
          ...(tls ? { tls } : {}),
          ...(apiKey ? { apiKey } : {}),
        }),
      )),
    async close() {
      await connection.close();
      // A worker given up on while the server was gone still holds the native connection; the process ends anyway.
      if (native) await (await native).close().catch(() => undefined);
    },
  };
}

/**
 * Links to Temporal only when it is already there (`TEMPORAL_ADDRESS` answering, or the embedded server running):
 * for shell completion, which must never start a server nor wait long.
 */
export async function linkIfRunning(options: LinkOptions): Promise<TemporalLink | undefined> {
  const { env } = options;
  if (env.TEMPORAL_ADDRESS) {
    try {
      const tls = tlsFrom(env);
      await checkReachable(env.TEMPORAL_ADDRESS, {
        timeoutMs: 2_000,
        ...(tls ? { tls } : {}),
        ...(env.TEMPORAL_API_KEY ? { apiKey: env.TEMPORAL_API_KEY } : {}),
      });
    } catch {
      return undefined;
    }
  } else if (!(await serverStatus(userStateDir(env))).running) return undefined;
  return linkTemporal(options);
}
