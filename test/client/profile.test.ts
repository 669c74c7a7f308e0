import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { profileFile, withProfile } from '../../src/client/profile.ts';

const dir = mkdtempSync(join(tmpdir(), 'profile-'));
const file = join(dir, 'temporal.toml');
writeFileSync(
  file,
  `[profile.default]
address = "default.example:7233"

[profile.cloud]
address = "eu.api.temporal.io:7233"
namespace = "evals.a1b2c"
api_key = "key-from-profile"

[profile.mtls]
address = "ns.acct.tmprl.cloud:7233"
[profile.mtls.tls]
client_cert_path = "/certs/client.pem"
client_key_path = "/certs/client.key"
server_name = "ns.acct.tmprl.cloud"

[profile.inline.tls]
client_cert_data = "-----BEGIN CERTIFICATE-----"
`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pick = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(
    Object.entries(env).filter(
      ([k, v]) =>
        k.startsWith('TEMPORAL_') &&
        k !== 'TEMPORAL_CONFIG_FILE' &&
        v !== undefined &&
        k !== 'TEMPORAL_PROFILE',
    ),
  );

describe('withProfile', () => {
  it.each<[string, NodeJS.ProcessEnv, Record<string, string>]>([
    ['the default profile when none is named', {}, { TEMPORAL_ADDRESS: 'default.example:7233' }],
    [
      'a named profile, its API key',
      { TEMPORAL_PROFILE: 'cloud' },
      {
        TEMPORAL_ADDRESS: 'eu.api.temporal.io:7233',
        TEMPORAL_NAMESPACE: 'evals.a1b2c',
        TEMPORAL_API_KEY: 'key-from-profile',
      },
    ],
    [
      'a variable that is set wins, an empty one too (the embedded server)',
      { TEMPORAL_PROFILE: 'cloud', TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: 'mine' },
      { TEMPORAL_ADDRESS: '', TEMPORAL_NAMESPACE: 'mine', TEMPORAL_API_KEY: 'key-from-profile' },
    ],
    [
      "mTLS files as this CLI's TLS variables",
      { TEMPORAL_PROFILE: 'mtls' },
      {
        TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233',
        TEMPORAL_TLS: 'true',
        TEMPORAL_TLS_CERT: '/certs/client.pem',
        TEMPORAL_TLS_KEY: '/certs/client.key',
        TEMPORAL_TLS_SERVER_NAME: 'ns.acct.tmprl.cloud',
      },
    ],
  ])('%s', (_, env, expected) => {
    expect(pick(withProfile({ ...env, TEMPORAL_CONFIG_FILE: file }))).toEqual(expected);
  });

  it('no file and no profile named: the environment as it is', () => {
    const env = { TEMPORAL_CONFIG_FILE: join(dir, 'none.toml'), TEMPORAL_ADDRESS: 'x:1' };
    expect(pick(withProfile(env))).toEqual({ TEMPORAL_ADDRESS: 'x:1' });
  });

  it.each([
    [
      'a profile the file lacks',
      { TEMPORAL_PROFILE: 'nowhere' },
      `TEMPORAL_PROFILE: no profile "nowhere" in ${file}`,
    ],
    [
      'a profile named with no file',
      { TEMPORAL_PROFILE: 'cloud', TEMPORAL_CONFIG_FILE: join(dir, 'none.toml') },
      'no profile "cloud"',
    ],
    [
      'inline TLS data',
      { TEMPORAL_PROFILE: 'inline' },
      'profile.inline.tls.client_cert_data: give the file as client_cert_path',
    ],
  ])('refuses %s, exit 2', (_, env, message) => {
    expect(() => withProfile({ TEMPORAL_CONFIG_FILE: file, ...env })).toThrow(message);
    expect(() => withProfile({ TEMPORAL_CONFIG_FILE: file, ...env })).toThrow(
      expect.objectContaining({ exitCode: 2 }),
    );
  });

  it('finds the file where Temporal’s CLI does', () => {
    expect(profileFile({ HOME: '/home/u' })).toBe('/home/u/.config/temporalio/temporal.toml');
    expect(profileFile({ HOME: '/home/u', XDG_CONFIG_HOME: '/cfg' })).toBe('/cfg/temporalio/temporal.toml');
    expect(profileFile({ TEMPORAL_CONFIG_FILE: '/x.toml' })).toBe('/x.toml');
  });
});
