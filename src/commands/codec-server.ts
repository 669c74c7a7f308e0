import type { AddressInfo } from 'node:net';
import type { Io } from '../cli/io.ts';
import { codecServer } from '../client/codec-http.ts';
import { AesGcmCodec, CODEC_KEYS, parseCodecKeys } from '../client/codec.ts';
import { ConfigError } from '../errors.ts';

/** `codec-server`'s flags: where it listens, the UI origins it answers, the token it asks for. */
export interface CodecServerFlags {
  port?: number;
  host?: string;
  origin?: string[];
  token?: string;
}

/** The port a codec server listens on when none is given. */
export const CODEC_SERVER_PORT = 8089;
/** The Web UI of the embedded dev server on its default port, by either name: the origins answered when none is given. */
const UI_ORIGINS = ['http://127.0.0.1:8233', 'http://localhost:8233'];
const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/**
 * Serves `LLM_EVALS_CODEC_KEYS` to the Temporal Web UI as a codec server until Ctrl-C: origins from `--origin` or
 * `LLM_EVALS_CODEC_ORIGINS` (comma list), the token from `--token` or `LLM_EVALS_CODEC_TOKEN`.
 */
export async function codecServerCommand(flags: CodecServerFlags, io: Io): Promise<number> {
  const keyring = parseCodecKeys(io.env[CODEC_KEYS]);
  if (!keyring)
    throw new ConfigError(undefined, CODEC_KEYS, 'is not set: the codec server would have no key');
  const host = flags.host ?? '127.0.0.1';
  const token = flags.token ?? io.env.LLM_EVALS_CODEC_TOKEN;
  if (!token && !LOOPBACK.includes(host))
    throw new ConfigError(
      undefined,
      '--token',
      `${host} is not loopback: give a token (or LLM_EVALS_CODEC_TOKEN)`,
    );
  const origins =
    flags.origin ?? io.env.LLM_EVALS_CODEC_ORIGINS?.split(',').map((o) => o.trim()) ?? UI_ORIGINS;
  const server = codecServer(new AesGcmCodec(keyring), { origins, ...(token ? { token } : {}) });
  const stop = io.watchInterrupt?.();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigError(undefined, '--port', `${flags.port} is taken; pass another (0: any free port)`)
          : error,
      ),
    );
    server.listen(flags.port ?? CODEC_SERVER_PORT, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const keyIds = keyring.keys.map((k) => k.id).join(', ');
  io.stdout.write(
    `llm-evals codec-server: http://${host}:${port} (keys ${keyIds}; origins ${origins.join(', ')}; ` +
      `${token ? 'bearer token required' : 'no token'})\n(Ctrl-C stops it)\n`,
  );
  await new Promise<void>((resolve) => {
    if (!stop || stop.aborted) return stop?.aborted ? resolve() : undefined;
    stop.addEventListener('abort', () => resolve(), { once: true });
  });
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  return 0;
}
