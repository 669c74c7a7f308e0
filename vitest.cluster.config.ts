import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster`: the durability tests on a production-shaped Temporal (dev/cluster.sh: the server built from
 * go.temporal.io/server on PostgreSQL) instead of the embedded dev server. The tests kill and restart the one cluster
 * they share, so the files run one at a time.
 */
export default defineConfig({
  test: {
    name: 'cluster',
    globalSetup: ['test/cluster/global-setup.ts'],
    include: [
      'test/cluster/**/*.test.ts',
      'test/durable/resume-worker-kill.test.ts',
      'test/durable/resume-ctrl-c.test.ts',
      'test/e2e/worker-versioning.test.ts',
    ],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    maxWorkers: 1,
    fileParallelism: false,
  },
});
