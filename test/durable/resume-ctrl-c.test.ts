import { afterAll, describe, it } from 'vitest';
import { runCliLong, startCli, type CliProcess } from '../helpers/cli.ts';
import { recordFileIn, waitForCalls, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { once, reportOf } from '../helpers/run-reads.ts';
import { CASES, expectResumed, recordingEnv, RUN_FLAGS, uninterruptedCompare } from '../helpers/durable.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// D3, Ctrl-C: `compare` stops its worker and says how to resume; `resume` finishes the run without paying twice.
// Each scenario has its own suite folder and task queue on the shared test server, so they run at once.

const dirs = new TempDirs();
const started: CliProcess[] = [];

afterAll(() => {
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  dirs.removeAll();
});

function scenario(name: string) {
  const dir = dirs.inRepo(`ctrl-c-${name}-`);
  const suite = writeRecordingSuite(dir, CASES);
  const record = recordFileIn(dir);
  const env = {
    TEMPORAL_ADDRESS: temporalAddress(),
    ...recordingEnv(record, 'ctrl-c'),
  };
  return { dir, suite, record, env };
}

/** An uninterrupted compare of the same suite: what every resumed run must end with. */
const baseline = once(() => {
  const { dir, env } = scenario('baseline');
  return uninterruptedCompare(dir, env);
});

describe('Ctrl-C of compare, then resume (D3)', () => {
  it.concurrent.for([0.1, 0.5, 0.9])(
    'after %s of the calls: exit 130 with the resume hint; resume pays no finished case again',
    { timeout: 240_000 },
    async (fraction, { expect, annotate }) => {
      const { dir, suite, record, env } = scenario(String(fraction));
      const expected = baseline();
      const compare = startCli(['compare', ...RUN_FLAGS, '--no-open'], { cwd: dir, env });
      started.push(compare);
      const runId = (await compare.waitFor(/run (\S+) started/))[1]!;
      const interruptedAfter = await waitForCalls(
        record,
        Math.ceil(fraction * suite.calls.length),
        compare.done,
      );
      const interruptedAt = Date.now();
      compare.child.kill('SIGINT');
      const stopped = await compare.done;
      expect(stopped.code, stopped.stderr).toBe(130);
      expect(stopped.stderr).toContain(`llm-evals resume ${runId}`);

      const resumed = await runCliLong(['resume', runId, '--no-open'], { cwd: dir, env });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toMatch(/snapshot saved: .*\.json/);
      const finishedAt = Date.now();
      const { report } = await reportOf(dir, env, runId);
      await expectResumed({ expect, annotate }, suite, record, {
        interruptedAfter,
        interruptedAt,
        finishedAt,
        report,
        baseline: await expected,
      });
    },
  );
});
