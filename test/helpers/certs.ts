import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The PEM files of a test's own certificate authority and the certificates it signed, each a path. */
export interface TestCerts {
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  /** A client certificate signed by another CA, which the server must refuse. */
  strangerCert: string;
  strangerKey: string;
}

function openssl(dir: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A self-signed CA (`<name>.pem`, `<name>.key`) for a day. */
function makeCa(dir: string, name: string): void {
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=llm-evals test ${name}`,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.pem`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

/** A leaf certificate (`<name>.pem`, `<name>.key`) signed by the CA `<ca>`, with the given v3 extensions. */
function makeLeaf(dir: string, name: string, ca: string, extensions: string[]): void {
  openssl(dir, [
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    `/CN=llm-evals test ${name}`,
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.csr`,
  ]);
  writeFileSync(join(dir, `${name}.ext`), extensions.join('\n') + '\n');
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.pem`,
    '-CAkey',
    `${ca}.key`,
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.pem`,
  ]);
}

/**
 * Makes, with the `openssl` CLI in `dir`, a CA, a server certificate for 127.0.0.1 and localhost and a client
 * certificate it signed, and a client certificate of a stranger CA.
 */
export function makeTestCerts(dir: string): TestCerts {
  const leaf = ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment'];
  makeCa(dir, 'ca');
  makeLeaf(dir, 'server', 'ca', [
    ...leaf,
    'extendedKeyUsage=serverAuth',
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ]);
  makeLeaf(dir, 'client', 'ca', [...leaf, 'extendedKeyUsage=clientAuth']);
  makeCa(dir, 'stranger-ca');
  makeLeaf(dir, 'stranger', 'stranger-ca', [...leaf, 'extendedKeyUsage=clientAuth']);
  const at = (file: string) => join(dir, file);
  return {
    ca: at('ca.pem'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
    strangerCert: at('stranger.pem'),
    strangerKey: at('stranger.key'),
  };
}
