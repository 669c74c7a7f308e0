import type { Io } from '../cli/io.ts';
import type { TemporalLink } from '../client/connect.ts';
import {
  batchCancelWords,
  batchesToCancel,
  type BatchAt,
  type BatchCancelled,
  type BatchCancelWords,
} from '../core/batch-cancel.ts';
import type { SuitePlace } from '../core/request.ts';
import { reachBatchApi } from '../providers/batch.ts';
import { discoverSuite } from './open-suite.ts';
import { loadEnvFiles, loadSuite, type LoadedSuite } from '../suite/load.ts';

/**
 * The suite that cancels a closed run's batches: the one `cancel` finds from its folder and place, as a worker of this
 * project finds it; `undefined` when there is none. A suite that does not load throws.
 */
export type FindSuite = () => Promise<LoadedSuite | undefined>;

/** The suite found from the command's folder and the place it names, loaded. */
export function suiteOfCommand(place: SuitePlace, io: Io): FindSuite {
  return async () => {
    const found = discoverSuite(place, io);
    return found ? await loadSuite(found) : undefined;
  };
}

/**
 * Cancels at their providers the batches a closed `--batch` run's experiments still waited on, which no worker
 * cancelled (batchesToCancel), from this process: each endpoint as `findSuite`'s suite builds it, its key from `env`
 * and the suite's env files (loaded into `env`), as a worker reads it. Answers what to say of each. A run with no
 * such batch loads nothing.
 */
export async function cancelLeftBatches(
  link: TemporalLink,
  runId: string,
  findSuite: FindSuite,
  env: NodeJS.ProcessEnv,
): Promise<BatchCancelWords> {
  const left = batchesToCancel(true, await link.runs.sentBatches(runId));
  if (left.length === 0) return { clauses: [], problems: [] };
  let suite: LoadedSuite | undefined;
  let unloaded: string | undefined;
  try {
    suite = await findSuite();
  } catch (error) {
    unloaded = `this project's suite did not load: ${(error as Error).message}`;
  }
  if (suite) loadEnvFiles(suite.root, suite.envFiles, env);
  const outcomes = unloaded
    ? left.map((batch) => ({ ...batch, failed: unloaded }))
    : await Promise.all(left.map((batch) => cancelAtProvider(batch, suite, env)));
  return batchCancelWords(runId, outcomes);
}

/** Asks the batch's provider to cancel it, or says why this process cannot (reachBatchApi, as a worker decides). */
async function cancelAtProvider(
  batch: BatchAt,
  suite: LoadedSuite | undefined,
  env: NodeJS.ProcessEnv,
): Promise<BatchCancelled> {
  if (!suite) return { ...batch, missing: 'provider' };
  const reached = reachBatchApi(suite.registry, batch.provider, env);
  if (!reached.found) {
    return reached.missing === 'key'
      ? { ...batch, missing: 'key', envVar: reached.envVar }
      : { ...batch, missing: reached.missing };
  }
  try {
    return { ...batch, status: (await reached.api.cancel(batch.batchId)).status };
  } catch (error) {
    // The provider's error names the request and its answer, never the key (it is only in a header).
    return { ...batch, failed: (error as Error).message };
  }
}
