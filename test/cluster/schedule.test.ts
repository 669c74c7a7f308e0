import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli.ts';
import { recordFileIn, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { temporalAddress } from '../helpers/temporal.ts';
import { until } from '../helpers/until.ts';

// D5 on the cluster: a schedule (the server's own schedules, kept in PostgreSQL) fires, a worker serves its runs, and
// `schedule show` finds them through the cluster's SQL visibility.

const { dirs, spawned: started } = cliFixtures();

interface Shown {
  schedule: { fired: number };
  runs: { runId: string; state: string }[];
}

describe('a schedule on the cluster (D5)', () => {
  it('fires every 2 s and its runs complete', async () => {
    const dir = dirs.inRepo('cluster-schedule-');
    const suite = writeRecordingSuite(dir, 4);
    const record = recordFileIn(dir);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `cluster-schedule-${randomUUID()}`,
      RECORDING_API_KEY: 'test-key',
      RECORD_FILE: record,
      CALL_DELAY_MS: '20',
    };
    const cli = (args: string[]) => runCli(args, { cwd: dir, env });
    const created = await cli(['schedule', 'create', 'nightly', '--every', '2s']);
    expect(created.code, created.stderr).toBe(0);
    const worker = startCli(['worker'], { cwd: dir, env, timeoutMs: 200_000 });
    started.push(worker);
    const two = await until('two completed fires', async () => {
      const out = await cli(['schedule', 'show', 'nightly', '--json']);
      expect(out.code, out.stderr).toBe(0);
      const shown = JSON.parse(out.stdout) as Shown;
      const done = shown.runs.filter((r) => r.state === 'completed');
      return done.length >= 2 ? { shown, done } : undefined;
    });
    expect(two.shown.schedule.fired).toBeGreaterThanOrEqual(2);
    expect((await cli(['schedule', 'delete', 'nightly'])).code).toBe(0);
    worker.child.kill('SIGTERM');
    await worker.done;
    // The two completed runs called every case.
    expect(suite.read(record).length).toBeGreaterThanOrEqual(2 * suite.calls.length);
  }, 200_000);
});
