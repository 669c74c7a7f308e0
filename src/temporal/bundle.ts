import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { bundleWorkflowCode, Runtime } from '@temporalio/worker';

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(dir, name))
    .sort();
}

/** The workflow bundle for Temporal's sandbox, built once per change of the workflow code and cached on disk. */
export async function workflowBundle(
  workflowsPath: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: string }> {
  const root = dirname(dirname(workflowsPath));
  const hash = createHash('sha256');
  for (const file of [...sourcesUnder(dirname(workflowsPath)), ...sourcesUnder(join(root, 'src', 'core'))]) {
    hash.update(file).update(readFileSync(file));
  }
  hash.update(readFileSync(join(root, 'package-lock.json')));
  const cacheDir = join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'llm-evals', 'workflows');
  const file = join(cacheDir, `${hash.digest('hex').slice(0, 20)}.js`);
  if (existsSync(file)) return { code: readFileSync(file, 'utf8') };
  // Webpack's build output goes to the runtime's logger (the command's log file), not the terminal.
  const { code } = await bundleWorkflowCode({ workflowsPath, logger: Runtime.instance().logger });
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(`${file}.tmp`, code);
  renameSync(`${file}.tmp`, file);
  return { code };
}
