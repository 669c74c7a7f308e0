import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO } from '../helpers/suite-dir.ts';

/** The script that builds, starts and stops the test cluster. */
export const CLUSTER_SCRIPT = join(REPO, 'dev/cluster.sh');

/** Runs `dev/cluster.sh <command>` (up, kill-server, restart-pg): its last line of output. */
export async function cluster(command: 'up' | 'kill-server' | 'restart-pg'): Promise<string> {
  const { stdout } = await promisify(execFile)(CLUSTER_SCRIPT, [command], { maxBuffer: 1 << 24 });
  return stdout.trim().split('\n').at(-1) ?? '';
}

/** The cluster's frontend when the tests run on it (`npm run test:cluster`), else undefined. */
export function clusterAddress(): string | undefined {
  return process.env.LLM_EVALS_TEST_CLUSTER || undefined;
}
