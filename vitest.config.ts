import { defineConfig } from 'vitest/config';

/**
 * Files that measure time (back-off gaps, rate limits, the durable kill and outage tests) or drive many processes:
 * they run one at a time, alone, after the rest. The rest run two at a time: a file at a time was 999 s on 2 cores,
 * most of it waiting on one-second calls and outages rather than on the processor.
 */
const TIMED = ['test/pressure/**/*.test.ts', 'test/durable/**/*.test.ts'];
const timeouts = { testTimeout: 30_000, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        test: {
          name: 'parallel',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...TIMED],
          ...timeouts,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      { test: { name: 'timed', include: TIMED, ...timeouts, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
