// Keeps V8's compiled code of the modules the CLI loads (Temporal's SDK, gRPC, protobufjs: ~600 files) under the
// user's cache with Node's own module.enableCompileCache, so a command does not parse and compile them again on every
// start. Node keys each entry by the file's content and checks it on load; LLM_EVALS_COMPILE_CACHE=0 turns it off.
import { isAbsolute, join } from 'node:path';
import Module from 'node:module';
import { homedir } from 'node:os';
import process from 'node:process';

/** The folder the cache goes to: `compile/` under the CLI's cache root, found as src/dirs.ts defaultCacheRoot does. */
export function compileCacheDir(env = process.env) {
  const xdg = env.XDG_CACHE_HOME;
  const root = xdg && isAbsolute(xdg) ? xdg : join(env.HOME ?? homedir(), '.cache');
  return join(root, 'llm-evals', 'compile');
}

/** Turns Node's compile cache on for this process (and the workers it starts), unless the user turned it off. */
export function installCompileCache(env = process.env) {
  if (env.LLM_EVALS_COMPILE_CACHE === '0') return;
  // An older Node than the package supports runs without it rather than failing here.
  Module.enableCompileCache?.(compileCacheDir(env));
}
