import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundleWorkflowCode, Runtime } from '@temporalio/worker';
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
  const root = dirname(dirname(workflowsPath));
  const hash = createHash('sha256');
  for (const file of [...sourcesUnder(dirname(workflowsPath)), ...sourcesUnder(join(root, 'src', 'core'))]) {
    hash.update(file).update(readFileSync(file));
  }
  hash.update((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version);
  hash.update(sdkVersion());
  const cacheDir = join(defaultCacheRoot(env), 'workflows');
  const file = join(cacheDir, `${hash.digest('hex').slice(0, 20)}.js`);
  if (existsSync(file)) return { code: readFileSync(file, 'utf8') };
  // Webpack's build output goes to the runtime's logger (the command's log file), not the terminal.
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    // Registered in every bundle; it traces only runs started with a trace context (engine-tracing.ts).
    workflowInterceptorModules: [join(dirname(workflowsPath), 'tracing.ts')],
    logger: Runtime.instance().logger,
  });
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(`${file}.tmp`, code);
  renameSync(`${file}.tmp`, file);
  return { code };
}

/** The installed `@temporalio/workflow` version: a bundle holds its code, so a new SDK needs a new bundle. */
function sdkVersion(): string {
  const manifest = join(PACKAGE_ROOT, 'node_modules', '@temporalio', 'workflow', 'package.json');
  return existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
    : '';
}
