import { describe, expect, it } from 'vitest';
import { describeTlsFailure } from '../../src/client/tls-probe.ts';

/** An error as Node's TLS raises it: a message and a code. */
function tlsError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

const OPENSSL =
  '80DCA773E77F0000:error:0A000418:SSL routines:ssl3_read_bytes:tlsv1 alert unknown ca:../deps/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 48\n';

describe('describeTlsFailure', () => {
  it.each([
    [
      'SELF_SIGNED_CERT_IN_CHAIN',
      'self-signed certificate in certificate chain',
      {},
      'its certificate is not trusted (self-signed certificate in certificate chain)',
      'Set TEMPORAL_TLS_CA to the file of the CA that signed it.',
    ],
    [
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'unable to verify the first certificate',
      { ca: '/certs/ca.pem' },
      'its certificate is not trusted (unable to verify the first certificate)',
      'The CA in TEMPORAL_TLS_CA (/certs/ca.pem) did not sign it: name the CA that did.',
    ],
    [
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'Hostname/IP does not match',
      {},
      'its certificate is not for temporal.internal (Hostname/IP does not match)',
      'Set TEMPORAL_TLS_SERVER_NAME to a name its certificate holds.',
    ],
    [
      'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
      OPENSSL,
      { cert: '/certs/me.pem' },
      'it refused the client certificate in TEMPORAL_TLS_CERT (/certs/me.pem): tlsv1 alert unknown ca',
      'Set TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY to a certificate and key its CA signed.',
    ],
    [
      'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
      'tlsv13 alert certificate required',
      {},
      'it wants a client certificate, and none was sent (tlsv13 alert certificate required)',
      'Set TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY to a certificate and key its CA signed.',
    ],
    [
      'ERR_SSL_WRONG_VERSION_NUMBER',
      'wrong version number',
      {},
      'it does not speak TLS (wrong version number)',
      'Unset TEMPORAL_TLS, TEMPORAL_TLS_CERT, TEMPORAL_TLS_KEY, TEMPORAL_TLS_CA and TEMPORAL_API_KEY for a plaintext server.',
    ],
    [
      'ERR_SSL_NO_PROTOCOLS_AVAILABLE',
      'no protocols available',
      {},
      'the TLS handshake failed (no protocols available)',
      'Check TEMPORAL_TLS_CERT, TEMPORAL_TLS_KEY, TEMPORAL_TLS_CA and TEMPORAL_TLS_SERVER_NAME.',
    ],
  ])('%s: says what and what to set', (code, message, files, problem, fix) => {
    expect(describeTlsFailure(tlsError(code, message), files, 'temporal.internal')).toEqual({ problem, fix });
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT'])(
    '%s is no TLS problem: the gRPC check reports it',
    (code) => {
      expect(describeTlsFailure(tlsError(code, code), {}, 'temporal.internal')).toBeUndefined();
    },
  );
});
