import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { loadWorkerSdk } from './runtime-log.ts';
import { replaceFile } from '../cache/replace-file.ts';
import { defaultCacheRoot } from '../dirs.ts';
import { PACKAGE_ROOT } from '../package-root.ts';

/** The workflow bundle an installed package ships, built at pack time: an installed CLI never runs webpack. */
export const PREBUILT_BUNDLE = join(PACKAGE_ROOT, 'dist', 'workflow-bundle.js');

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name))
    .sort();
}

/** The comment that webpack ends a workflow bundle with: the inline source map, base64 after its media type. */
const MAP_COMMENT = '//# sourceMappingURL=data:';

/**
 * The bundle with its inline source map kept to what stack traces need (names, sources, mappings): webpack also
 * embeds every source file's text (two thirds of the bundle's 1.8 MB), which each worker's start decoded, parsed,
 * encoded again and scanned while compiling, and which nothing reads.
 */
export function withoutSourcesContent(code: string): string {
  const comment = code.lastIndexOf(MAP_COMMENT);
  const data = comment < 0 ? -1 : code.indexOf('base64,', comment) + 'base64,'.length;
  if (data <= comment) return code;
  const map = JSON.parse(Buffer.from(code.slice(data).trimEnd(), 'base64').toString()) as {
    sourcesContent?: unknown;
  };
  delete map.sourcesContent;
  return `${code.slice(0, data)}${Buffer.from(JSON.stringify(map)).toString('base64')}\n`;
}

/** The failure converter the workflows encode their failures with, beside them in the package's sources. */
function failureConverterSource(workflowsPath: string): string {
  return join(dirname(dirname(workflowsPath)), 'src', 'client', 'failure-converter.ts');
}

/**
 * Bundles the workflows for Temporal's sandbox, the tracing interceptors registered, failures encoded (their messages
 * and stacks encrypted with the payloads), the source map kept small.
 */
export async function buildWorkflowBundle(
  workflowsPath: string,
  logger?: Parameters<typeof bundleWorkflowCode>[0]['logger'],
): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    // Registered in every bundle; it traces only runs started with a trace context (engine-tracing.ts).
    workflowInterceptorModules: [join(dirname(workflowsPath), 'tracing.ts')],
    failureConverterPath: failureConverterSource(workflowsPath),
    ...(logger ? { logger } : {}),
  });
  return withoutSourcesContent(code);
}

/**
 * What a bundle of the workflows at `workflowsPath` is made from, as 20 hex digits: their sources and the pure core's,
 * the failure converter, the package's and the SDK's versions. A cached bundle is good while this is the same.
 */
export function workflowSourcesDigest(workflowsPath: string): string {
  const root = dirname(dirname(workflowsPath));
  const hash = createHash('sha256');
  for (const file of [
    ...sourcesUnder(dirname(workflowsPath)),
    ...sourcesUnder(join(root, 'src', 'core')),
    failureConverterSource(workflowsPath),
  ]) {
    hash.update(file).update(readFileSync(file));
  }
  hash.update((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version);
  hash.update(sdkVersion());
  // Bundles cached before their source map was made small are made again.
  hash.update('without-sources-content');
  return hash.digest('hex').slice(0, 20);
}

/**
 * The workflow bundle for Temporal's sandbox: the prebuilt one of an installed package, else (in a checkout) one
 * built once per change of the workflow code and the SDK's version, cached on disk.
 */
export async function workflowBundle(
  workflowsPath: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: string }> {
  if (!existsSync(workflowsPath) && existsSync(PREBUILT_BUNDLE)) {
    return { code: readFileSync(PREBUILT_BUNDLE, 'utf8') };
  }
  const file = join(defaultCacheRoot(env), 'workflows', `${workflowSourcesDigest(workflowsPath)}.js`);
  return cachedBundle(file, async () => {
    // Webpack's build output goes to the runtime's logger (the command's log file), not the terminal. The runtime is
    // the one the worker's SDK installs as it loads: asked for before that, Runtime.instance() would make a default
    // one, and the command's install would then fail (a worker whose build id hashes a bundle not yet cached).
    const { Runtime } = await loadWorkerSdk();
    return buildWorkflowBundle(workflowsPath, Runtime.instance().logger);
  });
}

/**
 * The bundle kept in `file` (named by workflowSourcesDigest), read when it is there, else built and written: each
 * writer through a temporary name of its own, since two commands building at once wrote the same `.tmp`, and one's
 * rename could publish the other's half-written file.
 */
export async function cachedBundle(file: string, build: () => Promise<string>): Promise<{ code: string }> {
  if (existsSync(file)) return { code: readFileSync(file, 'utf8') };
  const code = await build();
  replaceFile(file, `${file}.${randomBytes(6).toString('hex')}.tmp`, code);
  return { code };
}

/** The installed `@temporalio/workflow` version: a bundle holds its code, so a new SDK needs a new bundle. */
function sdkVersion(): string {
  const manifest = join(PACKAGE_ROOT, 'node_modules', '@temporalio', 'workflow', 'package.json');
  return existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
    : '';
}
