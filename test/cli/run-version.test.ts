import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { ClosableConnection } from '../../src/client/closable-connection.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { recordFileIn, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';
import { Runs } from '../../src/client/runs.ts';

// A run records which llm-evals started it; one a later release line started is refused by `resume` at once, with
// the command that can finish it, rather than left to a worker whose workflow code may not replay it.

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

describe('resume of a run another release started', () => {
  it('refuses a run a newer release line started: exit 2, one line naming the version that can finish it', async () => {
    const dir = dirs.inRepo('run-version-');
    writeRecordingSuite(dir, 2);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `run-version-${randomUUID()}`,
      RECORD_FILE: recordFileIn(dir),
      RECORDING_API_KEY: 'test-key',
    };
    const started = await runCli(['start', '--no-worker'], { cwd: dir, env });
    expect(started.code, started.stderr).toBe(0);
    const ours = started.stdout.trim();
    // The same run as a release 9.0 would have started it.
    const connection = await ClosableConnection.connect({ address: temporalAddress() });
    const runs = new Runs(new Client({ connection }));
    const { input, header, taskQueue } = await runs.read(ours);
    const theirs = `${ours}-v9`;
    await runs.start(taskQueue, { ...input, runId: theirs }, header, undefined, '9.0.0');

    const refused = await runCli(['resume', theirs, '--no-open'], { cwd: dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n').at(-1)).toBe(
      `llm-evals: run ${theirs} was started by llm-evals 9.0.0, which this llm-evals 0.2.0 cannot finish: ` +
        `npx llm-evals@9.0.0 resume ${theirs}`,
    );
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    // No worker ever served either: ended at once.
    for (const id of [ours, theirs]) await runs.cancel(id, 0);
    await connection.close();
  }, 120_000);
});
