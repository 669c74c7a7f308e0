import { defineConfig } from 'vitest/config';

/**
 * Tests that need no Temporal server, no built CLI and no browser: the pure core, renderers, parsers, the lint rules.
 * `npm run test:unit` runs them alone, without the global setup (no build, no server), in seconds.
 */
const UNIT = [
  'test/core/**/*.test.ts',
  'test/lint/**/*.test.ts',
  'test/scorers/**/*.test.ts',
  'test/api/**/*.test.ts',
  'test/suite/**/*.test.ts',
  'test/commands/**/*.test.ts',
  'test/activities/**/*.test.ts',
  'test/report/{breakdown,failed-replies,format,html,leaderboard,standings,table-fit,table-size,text-width,value-chart,weights-table}.test.ts',
  'test/providers/{catalog-cache,chat-completions,registry}.test.ts',
  'test/trackers/{braintrust,check,from-snapshot,local,otlp-target,otlp,select,send}.test.ts',
  'test/temporal/zip.test.ts',
  'test/client/{tls-probe,unavailable}.test.ts',
];

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
      { test: { name: 'unit', include: UNIT, ...timeouts, maxWorkers: 2, sequence: { groupOrder: 0 } } },
      {
        test: {
          name: 'parallel',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...UNIT, ...TIMED],
          ...timeouts,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      { test: { name: 'timed', include: TIMED, ...timeouts, maxWorkers: 1, sequence: { groupOrder: 2 } } },
    ],
  },
});
