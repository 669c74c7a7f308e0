import { isIP } from 'node:net';
import { checkServerIdentity, connect, type PeerCertificate } from 'node:tls';
import type { TLSConfig } from '@temporalio/client';

/** What a TLS handshake with the server said, in the words of the settings (Temporal CLI's env names) that fix it. */
export interface TlsProblem {
  /** What went wrong, e.g. "its certificate is not trusted (self-signed certificate in certificate chain)". */
  problem: string;
  /** What to set, e.g. "Set TEMPORAL_TLS_CA to the file of the CA that signed it." */
  fix: string;
}

/** The certificate files the settings named, to say which one the server or the client objected to. */
export interface TlsFiles {
  ca?: string;
  cert?: string;
}

/** Node's codes for a server certificate that does not chain to a CA we trust. */
const UNTRUSTED = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

/** The alerts a server sends when it does not accept the client's certificate, or wants one. */
const CLIENT_REFUSED =
  /ALERT_(UNKNOWN_CA|BAD_CERTIFICATE|CERTIFICATE_UNKNOWN|CERTIFICATE_REQUIRED|UNSUPPORTED_CERTIFICATE|ACCESS_DENIED|CERTIFICATE_EXPIRED|CERTIFICATE_REVOKED|HANDSHAKE_FAILURE)$/;

/** An error's message, with OpenSSL's own (`<hex>:error:<code>:SSL routines:<function>:<reason>:<file>:…`) cut to its reason. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return /SSL routines:[^:]*:([^:]+):/.exec(message)?.[1] ?? message.trim();
}

const CLIENT_CERT_FIX = 'Set TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY to a certificate and key its CA signed.';

/** Turns a failed handshake into a problem and its fix; undefined for a failure that is not about TLS. */
export function describeTlsFailure(
  error: unknown,
  files: TlsFiles,
  serverName: string,
): TlsProblem | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  const reason = reasonOf(error);
  if (typeof code !== 'string') return undefined;
  if (UNTRUSTED.has(code))
    return {
      problem: `its certificate is not trusted (${reason})`,
      fix: files.ca
        ? `The CA in TEMPORAL_TLS_CA (${files.ca}) did not sign it: name the CA that did.`
        : 'Set TEMPORAL_TLS_CA to the file of the CA that signed it.',
    };
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return {
      problem: `its certificate is not for ${serverName} (${reason})`,
      fix: 'Set TEMPORAL_TLS_SERVER_NAME to a name its certificate holds.',
    };
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return {
      problem: `its certificate is not valid now (${reason})`,
      fix: 'Renew the server’s certificate.',
    };
  if (CLIENT_REFUSED.test(code))
    return {
      problem: files.cert
        ? `it refused the client certificate in TEMPORAL_TLS_CERT (${files.cert}): ${reason}`
        : `it wants a client certificate, and none was sent (${reason})`,
      fix: CLIENT_CERT_FIX,
    };
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER' || code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG')
    return {
      problem: `it does not speak TLS (${reason})`,
      fix: 'Unset TEMPORAL_TLS, TEMPORAL_TLS_CERT, TEMPORAL_TLS_KEY, TEMPORAL_TLS_CA and TEMPORAL_API_KEY for a plaintext server.',
    };
  if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_'))
    return {
      problem: `the TLS handshake failed (${reason})`,
      fix: 'Check TEMPORAL_TLS_CERT, TEMPORAL_TLS_KEY, TEMPORAL_TLS_CA and TEMPORAL_TLS_SERVER_NAME.',
    };
  return undefined;
}

/** HTTP/2's client connection preface and an empty SETTINGS frame: any HTTP/2 server answers with its SETTINGS. */
const PREFACE = Buffer.concat([
  Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
  Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]),
]);

/** The host (an IPv6 one without its brackets) and port of a `host:port` address; Temporal's 7233 when it names none. */
export function hostAndPort(address: string): { host: string; port: number } {
  const port = /:(\d+)$/.exec(address)?.[1];
  return { host: address.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1'), port: Number(port ?? 7233) };
}

/** Whether the env asks for TLS (the names Temporal's CLI reads): a certificate, key or CA, TEMPORAL_TLS, an API key. */
export function wantsTls(env: NodeJS.ProcessEnv): boolean {
  return Boolean(
    env.TEMPORAL_TLS_CERT ||
    env.TEMPORAL_TLS_KEY ||
    env.TEMPORAL_TLS_CA ||
    env.TEMPORAL_TLS === 'true' ||
    env.TEMPORAL_API_KEY,
  );
}

/**
 * Shakes hands with the server at `address` as the client will (same CA, client certificate and server name, ALPN
 * h2) and waits for its first HTTP/2 frame. A TLS failure comes back described; anything else (nothing listening, no
 * answer in `timeoutMs`) as undefined, for the gRPC check to report: gRPC's own connect only says "failed to connect
 * before the deadline", once the deadline has passed.
 */
export function probeTls(
  address: string,
  tls: TLSConfig,
  files: TlsFiles,
  timeoutMs = 5000,
): Promise<TlsProblem | undefined> {
  const { host, port } = hostAndPort(address);
  const serverName = tls.serverNameOverride ?? host;
  return new Promise((resolve) => {
    let shook = false;
    const socket = connect({
      host,
      port,
      ALPNProtocols: ['h2'],
      // An IP address is no server name (RFC 6066); the certificate is then checked against the IP.
      ...(isIP(serverName) ? {} : { servername: serverName }),
      ...(tls.serverNameOverride
        ? { checkServerIdentity: (_: string, cert: PeerCertificate) => checkServerIdentity(serverName, cert) }
        : {}),
      ...(tls.serverRootCACertificate ? { ca: Buffer.from(tls.serverRootCACertificate) } : {}),
      ...(tls.clientCertPair
        ? { cert: Buffer.from(tls.clientCertPair.crt), key: Buffer.from(tls.clientCertPair.key) }
        : {}),
    });
    const done = (problem: TlsProblem | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(problem);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.once('secureConnect', () => {
      shook = true;
      socket.write(PREFACE);
    });
    socket.once('data', () => done(undefined));
    socket.once('error', (error) => done(describeTlsFailure(error, files, serverName)));
    // A server that took the handshake and then hung up without a frame or an alert refused us after it: with TLS
    // 1.3 the client's certificate is checked only then. Before the handshake, it said nothing we can describe.
    socket.once('close', () => done(shook ? refusedAfterHandshake(files) : undefined));
  });
}

/** The server ended the connection right after the handshake, without a word: it did not take the client's certificate. */
function refusedAfterHandshake(files: TlsFiles): TlsProblem {
  return {
    problem: files.cert
      ? `it refused the client certificate in TEMPORAL_TLS_CERT (${files.cert}): it hung up right after the handshake`
      : 'it hung up right after the handshake; it likely wants a client certificate, and none was sent',
    fix: CLIENT_CERT_FIX,
  };
}
