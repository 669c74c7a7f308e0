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

/**
 * The folder of the one embedded Temporal server per user (SQLite db, server.json, log, lock), shared by every
 * project: `LLM_EVALS_STATE_DIR` if set (tests, or a second server on purpose), else `$XDG_STATE_HOME/llm-evals`,
 * else `~/.local/state/llm-evals`.
 */
export function userStateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LLM_EVALS_STATE_DIR) return env.LLM_EVALS_STATE_DIR;
  return join(xdgDir(env, 'XDG_STATE_HOME', join('.local', 'state')), 'llm-evals');
}
