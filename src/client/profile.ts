import { homedir } from 'node:os';
import { join } from 'node:path';
import { loadClientConfigProfile, type ClientConfigProfile } from '@temporalio/envconfig';
import { ConfigError } from '../errors.ts';

/** The profile file Temporal's CLI reads: `TEMPORAL_CONFIG_FILE`, else `temporalio/temporal.toml` in the config dir. */
export function profileFile(env: NodeJS.ProcessEnv): string {
  if (env.TEMPORAL_CONFIG_FILE) return env.TEMPORAL_CONFIG_FILE;
  const config = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(config, 'temporalio', 'temporal.toml');
}

/** A file the profile names by path, or a refusal of inline data (this CLI passes TLS files by path). */
function pathOf(source: { path: string } | { data: unknown } | undefined, key: string, profile: string) {
  if (!source) return undefined;
  if ('path' in source) return source.path;
  throw new ConfigError(
    undefined,
    `profile.${profile}.tls.${key}_data`,
    `give the file as ${key}_path instead`,
  );
}

/**
 * The environment with a Temporal CLI profile filled in beneath it (`TEMPORAL_PROFILE`, default "default", from
 * {@link profileFile}): the variables that are set win, as with Temporal's CLI. `TEMPORAL_TLS_CLIENT_CERT_PATH` and
 * friends (the names of Temporal's newer CLI) count as the `TEMPORAL_TLS_CERT` this CLI reads. A profile named but
 * missing is a {@link ConfigError}.
 */
export function withProfile(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const name = env.TEMPORAL_PROFILE || 'default';
  const file = profileFile(env);
  let profile: ClientConfigProfile;
  try {
    profile = loadClientConfigProfile({
      configSource: { path: file },
      disableEnv: true,
      ...(env.TEMPORAL_PROFILE ? { profile: env.TEMPORAL_PROFILE } : {}),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if ((error as { code?: string }).code === 'ENOENT' || /not found in config data/.test(message)) {
      if (!env.TEMPORAL_PROFILE) return renamed(env);
      throw new ConfigError(undefined, 'TEMPORAL_PROFILE', `no profile "${name}" in ${file}`);
    }
    throw new ConfigError(file, undefined, message, { cause: error });
  }
  const tls = profile.tls && !profile.tls.disabled ? profile.tls : undefined;
  const fromProfile: Record<string, string | undefined> = {
    TEMPORAL_ADDRESS: profile.address,
    TEMPORAL_NAMESPACE: profile.namespace,
    TEMPORAL_API_KEY: profile.apiKey,
    TEMPORAL_TLS: tls ? 'true' : undefined,
    TEMPORAL_TLS_CERT: pathOf(tls?.clientCert, 'client_cert', name),
    TEMPORAL_TLS_KEY: pathOf(tls?.clientKey, 'client_key', name),
    TEMPORAL_TLS_CA: pathOf(tls?.serverCACert, 'server_ca_cert', name),
    TEMPORAL_TLS_SERVER_NAME: tls?.serverName,
  };
  const given = Object.fromEntries(Object.entries(fromProfile).filter(([, value]) => value));
  return renamed({ ...given, ...definedIn(env) });
}

/** The variables of `env` that hold a value: an empty `TEMPORAL_ADDRESS=` means "use the embedded server". */
function definedIn(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined));
}

/** Temporal's newer names for the TLS files, as the names this CLI reads when those are unset. */
function renamed(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    TEMPORAL_TLS_CERT: env.TEMPORAL_TLS_CERT ?? env.TEMPORAL_TLS_CLIENT_CERT_PATH,
    TEMPORAL_TLS_KEY: env.TEMPORAL_TLS_KEY ?? env.TEMPORAL_TLS_CLIENT_KEY_PATH,
    TEMPORAL_TLS_CA: env.TEMPORAL_TLS_CA ?? env.TEMPORAL_TLS_SERVER_CA_CERT_PATH,
  };
}
