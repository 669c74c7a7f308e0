import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { findTemporalBinary } from '../../temporal/binary.ts';
import { ensureBuilt } from '../../dev/build.mjs';
import { warmCache } from '../helpers/fault-server.ts';
import { cluster } from './cluster.ts';

/**
 * `npm run test:cluster`: the tests run against the production-shaped cluster of `dev/cluster.sh` (Temporal on
 * PostgreSQL) instead of the embedded dev server: the one `dev/cluster.sh up` starts, or finds running (built once and
 * cached; the tests kill and restart it through the script). Its address reaches tests as `temporalAddress`, as the
 * dev server's does, and LLM_EVALS_TEST_CLUSTER tells the durability helpers to use it rather than a dev server of
 * their own.
 */
export async function setup(project: TestProject): Promise<() => Promise<void>> {
  await ensureBuilt();
  await warmCache();
  const started = Date.now();
  const address = await cluster('up');
  process.stderr.write(`[cluster] up at ${address} in ${Date.now() - started} ms\n`);
  process.env.LLM_EVALS_TEST_CLUSTER = address;
  const root = await mkdtemp(join(tmpdir(), 'llm-evals-test-cluster-'));
  process.env.LLM_EVALS_STATE_DIR = join(root, 'user');
  process.env.LLM_EVALS_CACHE_DIR = join(root, 'replies');
  project.provide('temporalAddress', address);
  project.provide('temporalBinary', await findTemporalBinary({ log: () => undefined }));
  return async () => {
    await rm(root, { recursive: true, force: true });
  };
}
