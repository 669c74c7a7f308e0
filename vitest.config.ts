import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * Tests that need no Temporal server, no built CLI and no browser: the pure core, renderers, parsers, the lint rules.
 * `npm run test:unit` runs them alone, without the global setup (no build, no server), in seconds.
 */
const UNIT = [
  'test/core/**/*.test.ts',
  'test/agent/**/*.test.ts',
  'test/gate/**/*.test.ts',
  'test/judge/**/*.test.ts',
  'test/lint/**/*.test.ts',
  'test/scorers/**/*.test.ts',
  'test/api/**/*.test.ts',
  'test/suite/**/*.test.ts',
  'test/commands/**/*.test.ts',
  'test/activities/**/*.test.ts',
  'test/report/{breakdown,failed-replies,format,html,judge-column,judge-line,leaderboard,progress,silence-line,standings,table-fit,table-size,text-width,value-chart,weights-table}.test.ts',
  'test/providers/{catalog-cache,chat-completions,registry,tool-wire}.test.ts',
  'test/trackers/{braintrust,check,from-snapshot,local,otlp-target,otlp,select,send}.test.ts',
  'test/temporal/{server-settings,zip}.test.ts',
  'test/cache/**/*.test.ts',
  'test/client/{codec,profile,stack-trace-hook,tls-probe,unavailable,versioning}.test.ts',
];

/**
 * The fault tests: files that kill or stop parts mid-run, or measure time (back-off gaps, a stall, a vendor's window).
 * With WAITING below they are `npm run test:faults`, which `npm test` (CI) runs and `npm run check` leaves to commits
 * that touch the engine. Those not in WAITING measure a clock: they run one at a time, alone, after the rest and
 * after WAITING. The rest run four at a time on 2 cores: most of their files wait on calls, timers, processes and the
 * server, so each added worker filled idle time. Unit + parallel (`npm run test:quick`, 2,864 tests) took 638 s with
 * two and 560 s with three (2026-12-05, one run each, load 2-6); on 2026-12-06 (02:01-02:25 UTC, one run after the
 * other, load below 2 at each start) 515 s with three, 395 s with four and 362 s with five, the sum of the files'
 * own times the same (1,500 and 1,520 s). Four, not five: load rose to 7 with five, and what fails under load is a
 * test that reads a clock.
 */
const TIMED = ['test/pressure/**/*.test.ts', 'test/durable/**/*.test.ts'];
/**
 * A fleet upgrade (Worker Versioning) that waits out the 90 s after which a stopped build's worker no longer counts as
 * polling: 140-180 s, nearly all of it idle. In WAITING it held that group about 50 s past its other files; in a
 * project of parallel's group (same maxWorkers, so vitest shares the group's workers) it waits beside the parallel
 * files, on one of their slots. Run by `npm test` and `npm run test:faults`, not by `npm run check`.
 */
const FLEET = ['test/e2e/worker-versioning.test.ts'];
/** The tests of a production-shaped cluster: `npm run test:cluster` runs them (vitest.cluster.config.ts), not `npm test`. */
const CLUSTER = ['test/cluster/**/*.test.ts'];
/**
 * Fault files that tolerate company, run side by side before the other timed files. Most of them wait (a server gone
 * for 25 s, a rate limit's 30-s window, a lease to lapse, a dead model's back-off): about a third of a core each once
 * started. The kill tests (a worker, a server or the command killed mid-run, then resumed) and the pause, abort and
 * provider-restart tests check counts or a gap's least length, never an upper bound on a clock: no case paid twice,
 * every case answered, at most so many calls past a pause. Longest first. These files and the fleet upgrade (since
 * moved to FLEET), five at a time, took 212 s, and `npm run test:faults` 307 s in all (449 s when the kill
 * tests still ran one at a time; 13:50 UTC, load 1.1 at the start, 6-7 during). Every bound held there and in a CI
 * run. Tried and dropped: the three longest in a project of parallel's group, to wait beside its files. Projects of one
 * group share its workers, so they took three of parallel's slots for 160 s instead (CI 959 s against 977; vitest
 * refuses the same group with WAITING's five).
 */
const WAITING = [
  'test/durable/server-outage.test.ts',
  'test/durable/worker-outage.test.ts',
  'test/durable/resume-server-kill.test.ts',
  'test/pressure/dead-model.test.ts',
  'test/pressure/rate-limit.test.ts',
  'test/durable/run-commands.test.ts',
  'test/durable/resume-worker-kill.test.ts',
  'test/durable/lease-lapse.test.ts',
  'test/pressure/pause.test.ts',
  'test/durable/judge-kill.test.ts',
  'test/durable/resume-ctrl-c.test.ts',
  'test/pressure/provider-restart.test.ts',
  'test/pressure/abort.test.ts',
];

/**
 * The longest files of the parallel project (40 s or more each in CI's last run, 12:11 UTC on 2026-12-05), started
 * first, longest first; then WAITING's, in its order. A clean clone has no timings from an earlier run, so vitest
 * starts its largest files first: the run of 60,000 cases big-run.test then made (a short file) began 15 minutes in,
 * and in the run above four files of 40-50 s not listed here started in the last 150 s, the last of them 42 s before
 * the end. Longest first, the workers end together.
 */
const LONGEST = [
  // Files that mostly wait, first so that they wait beside the others, not after them: the fleet upgrade, and a query
  // the server holds 30 s (last, it ran alone for the parallel files' last 15 s).
  ...FLEET,
  'test/client/closable-connection.test.ts',
  'test/install/package.test.ts',
  'test/e2e/schedule.test.ts',
  'test/workflows/compare-run.test.ts',
  'test/e2e/trackers.test.ts',
  'test/providers/cli-cache.test.ts',
  'test/e2e/batch.test.ts',
  'test/cli/ctrl-c-bounded.test.ts',
  'test/cli/checks-before-run.test.ts',
  'test/cli/foreign-worker.test.ts',
  'test/e2e/compare.test.ts',
  'test/providers/cli-error-summary.test.ts',
  'test/cli/worker-keys.test.ts',
  'test/temporal/deployments.test.ts',
  'test/cli/pause-cache.test.ts',
  'test/view/browser.test.ts',
  'test/view/schedule.test.ts',
  'test/e2e/schedule-flaky.test.ts',
  ...WAITING,
];

/** Vitest's order, with each project's LONGEST files moved to its front. */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => {
      const at = LONGEST.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
      return at < 0 ? LONGEST.length : at;
    };
    const projects = new Map<string, TestSpecification[]>();
    for (const spec of await super.sort(files)) {
      const name = spec.project.name;
      projects.set(name, [...(projects.get(name) ?? []), spec]);
    }
    return [...projects.values()].flatMap((specs) => specs.sort((a, b) => rank(a) - rank(b)));
  }
}

const timeouts = { testTimeout: 30_000, hookTimeout: 120_000 };

/**
 * The unit and parallel files share their worker processes (`isolate: false`): each worker loads vitest, Temporal's
 * SDK and our modules once, not once per file. Unit alone: 32 s and 61 CPU-s isolated, 13 s and 24 CPU-s shared; unit
 * + parallel: 724 s and 1,276 CPU-s isolated, 559 s and 957 CPU-s shared (2026-12-05, 2 cores, one run each). A file
 * that leaves work behind (a timer, a call in flight) now meets the next file's: what surfaced was a connection
 * closed with a call in flight, whose retry threw later (ClosableConnection, src/client/closable-connection.ts). The
 * fault projects, which kill and stop processes, stay isolated.
 */
const shared = { isolate: false };
/** The parallel group's workers, one number for its projects: vitest refuses a group whose projects differ. */
const PARALLEL_WORKERS = 4;

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        test: {
          name: 'unit',
          include: UNIT,
          ...timeouts,
          maxWorkers: 2,
          ...shared,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'parallel',
          include: ['test/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...UNIT, ...TIMED, ...WAITING, ...FLEET, ...CLUSTER],
          ...timeouts,
          maxWorkers: PARALLEL_WORKERS,
          ...shared,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'fleet',
          include: FLEET,
          ...timeouts,
          maxWorkers: PARALLEL_WORKERS,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: { name: 'waiting', include: WAITING, ...timeouts, maxWorkers: 5, sequence: { groupOrder: 2 } },
      },
      {
        test: {
          name: 'timed',
          include: TIMED,
          exclude: ['**/node_modules/**', ...WAITING],
          ...timeouts,
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
