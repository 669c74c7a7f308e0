import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** `$XDG_<kind>_HOME`, ignored unless absolute (as the XDG spec asks), else `~/<fallback>`. */
function xdgDir(env: NodeJS.ProcessEnv, variable: string, fallback: string): string {
  const value = env[variable];
  return value && isAbsolute(value) ? value : join(env.HOME ?? homedir(), fallback);
}

/** The default cache root: `$XDG_CACHE_HOME/llm-evals`, else `~/.cache/llm-evals`. */
export function defaultCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(xdgDir(env, 'XDG_CACHE_HOME', '.cache'), 'llm-evals');
}
