import { replyCache, type ReplyCache, type RunHeaders } from '../../activities/cached-model.ts';
import { replyCacheDir, ReplyStore } from '../cache/store.ts';

let told = false;

/**
 * This process's reply cache: the user's folder, each run's mode read from `runs`; a write that failed (a full disk)
 * is said once per process, and the run goes on, its results in Temporal.
 */
export function processReplyCache(runs: RunHeaders, env: NodeJS.ProcessEnv = process.env): ReplyCache {
  const store = new ReplyStore(replyCacheDir(env));
  return replyCache(store, runs, (error) => {
    if (told) return;
    told = true;
    const why = error instanceof Error ? error.message : String(error);
    process.stderr.write(
      `llm-evals: the reply cache could not be written (${store.dir}): ${why}; results are kept\n`,
    );
  });
}
