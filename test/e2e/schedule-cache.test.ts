import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli.ts';
import { recordFileIn, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { CLOSED, until } from '../helpers/until.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// A regression run measures the model of today: a schedule's fires call every case, whatever the reply cache holds,
// unless the schedule was created with --cache. Through the real CLI, with a worker of the suite and triggered fires.

const dirs = new TempDirs();
const started: CliProcess[] = [];

afterAll(() => {
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  dirs.removeAll();
});

describe('scheduled runs and the reply cache (D5)', () => {
  it('a fire calls every case even when the cache holds them all; a schedule made with --cache reads it', async () => {
    const dir = dirs.inRepo('schedule-cache-');
    const suite = writeRecordingSuite(dir, 2);
    const record = recordFileIn(dir);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `schedule-cache-${randomUUID()}`,
      LLM_EVALS_CACHE_DIR: dirs.os('llm-evals-replies-'),
      RECORDING_API_KEY: 'test-key',
      RECORD_FILE: record,
      CALL_DELAY_MS: '20',
    };
    const cli = (args: string[]) => runCli(args, { cwd: dir, env });
    const calls = () => suite.read(record).length;
    /** Triggers a fire of `name` and waits until its run has closed; answers the run's state. */
    const fire = async (name: string, count: number) => {
      expect((await cli(['schedule', 'trigger', name])).code).toBe(0);
      return until(`fire ${count} of ${name}`, async () => {
        const out = await cli(['schedule', 'show', name, '--json']);
        const runs = (JSON.parse(out.stdout) as { runs: { state: string }[] }).runs;
        return runs.length >= count && CLOSED.includes(runs[0]!.state) ? runs[0]!.state : undefined;
      });
    };

    // A compare fills the cache with every reply.
    const compare = await cli(['compare', '--display', 'none']);
    expect(compare.code, compare.stderr).toBe(0);
    expect(calls()).toBe(suite.calls.length);

    for (const [name, flags] of [
      ['fresh', []],
      ['cached', ['--cache']],
    ] as const) {
      const created = await cli(['schedule', 'create', name, '--every', '1d', ...flags]);
      expect(created.code, created.stderr).toBe(0);
    }
    const worker = startCli(['worker'], { cwd: dir, env, timeoutMs: 300_000 });
    started.push(worker);

    expect(await fire('fresh', 1)).toBe('completed');
    expect(calls()).toBe(2 * suite.calls.length);
    expect(await fire('fresh', 2)).toBe('completed');
    expect(calls()).toBe(3 * suite.calls.length);
    // With --cache, the replies the compare and the fresh fires kept answer it: no call.
    expect(await fire('cached', 1)).toBe('completed');
    expect(calls()).toBe(3 * suite.calls.length);

    for (const name of ['fresh', 'cached']) expect((await cli(['schedule', 'delete', name])).code).toBe(0);
    worker.child.kill('SIGTERM');
    await worker.done;
  }, 240_000);
});
