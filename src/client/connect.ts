import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type Connection, type DataConverter, type TLSConfig } from '@temporalio/client';
import type { NativeConnection } from '@temporalio/worker';
import { ClosableConnection } from './closable-connection.ts';
import { userStateDir } from '../dirs.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { ConfigError } from '../errors.ts';
import { TemporalTlsFailed } from '../../temporal/errors.ts';
import { checkReachable, ensureServer, serverStatus } from '../../temporal/server.ts';
import { currentServer } from '../../temporal/server-record.ts';
import { AesGcmCodec, CODEC_KEYS, parseCodecKeys, useKeyring } from './codec.ts';
import { engineTracing } from './engine-tracing.ts';
import { ensureNamespace } from './namespace.ts';
import { withProfile } from './profile.ts';
import { Runs } from './runs.ts';
import { Schedules } from './schedules.ts';
import { loadWorkerSdk } from './runtime-log.ts';
import { probeTls, wantsTls, type TlsFiles } from './tls-probe.ts';

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
  /** Every operation on schedules. */
  schedules: Schedules;
  /** The payload codec (`LLM_EVALS_CODEC_KEYS`) as the client applies it: every worker of this link applies the same. */
  dataConverter: DataConverter;
  nativeConnection(): Promise<NativeConnection>;
  close(): Promise<void>;
}

/**
 * Where to reach Temporal: `TEMPORAL_ADDRESS` and friends (the names Temporal's own CLI uses) over a Temporal CLI
 * profile (`TEMPORAL_PROFILE`, `temporal.toml`), else the embedded server.
 */
export interface LinkOptions {
  env: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /**
   * For a command that serves runs in this process: its worker's SDK loads and its native connection is made while
   * the client connects, rather than after.
   */
  serve?: boolean;
}

/** Reads a certificate or key file that a TLS setting names, saying which setting when it cannot. */
function readTlsFile(variable: string, path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const reason = (error as { code?: string }).code ?? String(error);
    throw new ConfigError(undefined, variable, `cannot read ${JSON.stringify(path)} (${reason})`, {
      cause: error,
    });
  }
}

/** The TLS settings (the env names Temporal's CLI reads), or undefined for a plaintext server. */
function tlsFrom(env: NodeJS.ProcessEnv): { tls: TLSConfig; files: TlsFiles } | undefined {
  const cert = env.TEMPORAL_TLS_CERT;
  const key = env.TEMPORAL_TLS_KEY;
  const ca = env.TEMPORAL_TLS_CA;
  if (!wantsTls(env)) return undefined;
  // One without the other would quietly send no client certificate, and the server's refusal would name neither.
  if (Boolean(cert) !== Boolean(key)) {
    const [set, unset] = cert
      ? ['TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY']
      : ['TEMPORAL_TLS_KEY', 'TEMPORAL_TLS_CERT'];
    throw new ConfigError(
      undefined,
      unset,
      `${set} is set but ${unset} is not: a client certificate needs both`,
    );
  }
  const tls: TLSConfig = {
    ...(env.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: env.TEMPORAL_TLS_SERVER_NAME } : {}),
    ...(ca ? { serverRootCACertificate: readTlsFile('TEMPORAL_TLS_CA', ca) } : {}),
    ...(cert && key
      ? {
          clientCertPair: {
            crt: readTlsFile('TEMPORAL_TLS_CERT', cert),
            key: readTlsFile('TEMPORAL_TLS_KEY', key),
          },
        }
      : {}),
  };
  return { tls, files: { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}) } };
}

/**
 * The failure converter (failure-converter.ts) as every client and worker loads it, by path, built to CommonJS in
 * dist/: failures' messages and stack traces travel encoded, so the codec encrypts them with the payloads.
 */
export const FAILURE_CONVERTER_PATH = join(PACKAGE_ROOT, 'dist', 'failure-converter.cjs');

/** The largest message the client takes from the server: a page of a big experiment's history. */
const RECEIVE_LIMIT = 64 * 1024 * 1024;

/** Connects to the configured cluster, or starts (or reuses) the user's embedded dev server, shared by every project. */
export async function linkTemporal(options: LinkOptions): Promise<TemporalLink> {
  const env = withProfile(options.env);
  // Read before anything is sent: a bad key is refused with nothing on the server.
  const keyring = parseCodecKeys(env[CODEC_KEYS]);
  useKeyring(keyring);
  // Always the codec, keys or none: a run encrypted elsewhere is then named by its key id, never read as garbage.
  const dataConverter: DataConverter = {
    payloadCodecs: [new AesGcmCodec(keyring)],
    failureConverterPath: FAILURE_CONVERTER_PATH,
  };
  const namespace = env.TEMPORAL_NAMESPACE ?? 'default';
  let address = env.TEMPORAL_ADDRESS;
  let uiUrl: string | undefined = env.TEMPORAL_UI_URL;
  const settings = tlsFrom(env);
  const tls = settings?.tls;
  const apiKey = env.TEMPORAL_API_KEY;
  // TLS and the API key, as every connection of this link (client, probe, worker) carries them.
  const secure = { ...(tls ? { tls } : {}), ...(apiKey ? { apiKey } : {}) };
  // The server fills a history page to about 4 MB and then adds the event that passes it (an exchange holds up to
  // 512 KB of results): a big run's pages passed gRPC's default 4 MB limit (RESOURCE_EXHAUSTED, "Received message
  // larger than max"), and its results went unread by the tracker, status and the report.
  //
  // gRPC's reconnect back-off grows by 1.6× to 120 s: after a server gone for minutes, the next try to reach it came
  // up to two minutes after it was back, and every call waited for it (the gate's look, the pools' exchanges go
  // through this channel). Tried every 2 s at most, a run goes on within seconds of the server's return.
  const large = {
    ...secure,
    channelArgs: {
      'grpc.max_receive_message_length': RECEIVE_LIMIT,
      'grpc.initial_reconnect_backoff_ms': 500,
      'grpc.max_reconnect_backoff_ms': 2000,
    },
  };
  let native: Promise<NativeConnection> | undefined;
  const connectNative = (target: string) =>
    (native ??= loadWorkerSdk().then(({ NativeConnection }) =>
      NativeConnection.connect({ address: target, ...secure }),
    ));
  /** Starts the native connection now, for a serving command; a failure waits for the worker that uses it. */
  const early = (target: string) => {
    if (options.serve) connectNative(target).catch(() => undefined);
  };
  let connection: Connection | undefined;
  if (address) {
    // gRPC's connect says only "failed to connect before the deadline" when TLS fails; the handshake says why.
    const problem = settings ? await probeTls(address, settings.tls, settings.files) : undefined;
    if (problem) throw new TemporalTlsFailed(address, problem.problem, problem.fix);
    await checkReachable(address, { timeoutMs: 10_000, ...secure });
    early(address);
  } else {
    // The server every command finds running: connecting is the check that it answers (one connection, not a probe
    // and then a connection). Starting one, or one that does not answer or lacks this version's settings, goes
    // through ensureServer and its errors.
    const running = await currentServer(userStateDir(env));
    if (running) early(running.address);
    connection = running
      ? await ClosableConnection.connect({ address: running.address, connectTimeout: 2_000, ...large }).catch(
          () => undefined,
        )
      : undefined;
    // A server that did not answer is started again: the connection to it is made anew.
    if (!connection) native = undefined;
    const server =
      connection && running
        ? running
        : await ensureServer({ stateDir: userStateDir(env), env, log: options.log });
    address = server.address;
    uiUrl = server.uiUrl;
  }
  connection ??= await ClosableConnection.connect({ address, ...large });
  const target = address;
  const tracing = await engineTracing(env);
  const client = new Client({
    connection,
    namespace,
    dataConverter,
    ...(tracing ? { interceptors: { workflow: [tracing.clientInterceptor()] } } : {}),
  });
  await ensureNamespace(client, address);
  const runs = new Runs(client);
  return {
    address,
    namespace,
    ...(uiUrl ? { uiUrl } : {}),
    embedded: !env.TEMPORAL_ADDRESS,
    client,
    runs,
    schedules: new Schedules(client, runs),
    dataConverter,
    nativeConnection: () => connectNative(target),
    async close() {
      runs.stopFollowing();
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
  const env = withProfile(options.env);
  if (env.TEMPORAL_ADDRESS) {
    try {
      const tls = tlsFrom(env)?.tls;
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
