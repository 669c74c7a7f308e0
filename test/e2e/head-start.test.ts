import { afterAll, describe, expect, it } from 'vitest';
import { runCliLong, startCli } from '../helpers/cli.ts';
import { recordingEnv } from '../helpers/durable.ts';
import { recordFileIn, waitForCalls, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress, testClient } from '../helpers/temporal.ts';

// A compare's first calls go out while Temporal's SDK loads and the run is made (src/temporal/head-start.ts); its
// pools take them over, so each case is still called once. Seen from outside: the first calls start before the run's
// workflow does, and every case is called once.

const dirs = new TempDirs();
const client = testClient();

afterAll(() => dirs.removeAll());

/** A compare of a 12-case recording suite at -p 2 -j 2: when its calls started, against when its run did. */
async function compare(name: string, extra: NodeJS.ProcessEnv = {}) {
  const dir = dirs.inRepo(`head-start-${name}-`);
  const suite = writeRecordingSuite(dir, 12);
  const record = recordFileIn(dir);
  const env = { TEMPORAL_ADDRESS: temporalAddress(), ...recordingEnv(record, `head-${name}`), ...extra };
  const { code, stderr } = await runCliLong(['compare', '-p', '2', '-j', '2', '--no-open'], {
    cwd: dir,
    env,
  });
  expect(code, stderr).toBe(0);
  const runId = /run (\S+) started/.exec(stderr)![1]!;
  const run = await client().workflow.getHandle(`llm-evals/${runId}`).describe();
  const starts = suite.read(record).map((c) => c.t);
  return { suite, record, runStarted: run.startTime.getTime(), starts };
}

describe('the first calls of a compare (head start)', () => {
  it('start before the run is made, and no case is called twice', async () => {
    const { suite, record, runStarted, starts } = await compare('on');
    // -j 2 -p 2: two lanes in each of the first two experiments, each lane calling up to two cases before its pool.
    const early = starts.filter((t) => t < runStarted).length;
    expect(early).toBeGreaterThanOrEqual(4);
    expect(early).toBeLessThanOrEqual(8);
    expect(starts).toHaveLength(suite.calls.length);
    expect([...suite.countCalls(record).values()].every((n) => n === 1)).toBe(true);
  }, 120_000);

  it('are recorded, not paid again, after a Ctrl-C that comes before the run is made', async () => {
    const dir = dirs.inRepo('head-start-ctrl-c-');
    const suite = writeRecordingSuite(dir, 12);
    const record = recordFileIn(dir);
    const env = { TEMPORAL_ADDRESS: temporalAddress(), ...recordingEnv(record, 'head-ctrl-c') };
    const cli = startCli(['compare', '-p', '2', '-j', '2', '--no-open'], { cwd: dir, env });
    // The first call is out before the run is: Ctrl-C then.
    await waitForCalls(record, 1, cli.done);
    cli.child.kill('SIGINT');
    const stopped = await cli.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    const runId = /llm-evals resume (\S+)/.exec(stopped.stderr)![1]!;
    const resumed = await runCliLong(['resume', runId, '--no-open'], { cwd: dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect([...suite.countCalls(record).values()].every((n) => n === 1)).toBe(true);
    expect(suite.countCalls(record).size).toBe(suite.calls.length);
  }, 120_000);

  it('wait for the run with LLM_EVALS_HEAD_START=0', async () => {
    const { suite, runStarted, starts } = await compare('off', { LLM_EVALS_HEAD_START: '0' });
    expect(starts.filter((t) => t < runStarted)).toHaveLength(0);
    expect(starts).toHaveLength(suite.calls.length);
  }, 120_000);
});
