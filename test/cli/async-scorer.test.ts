import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { runCli, runCliLong } from '../helpers/cli.ts';
import { newestSnapshot } from '../providers/cli-suite.ts';
import { recordFileIn, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { editFile, TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const RESULTS = 'evals/results';
const SYNC_CALL = `  call(kase: Case, reply: Reply): Score {
    const same = JSON.stringify(reply.output) === JSON.stringify(kase.expected) ? 1 : 0;
    return { value: same, metrics: { exact: same } };
  }`;
// The same grades, given later: a promise that settles after a timer, as a judge model's verdict would.
const ASYNC_CALL = `  async call(kase: Case, reply: Reply): Promise<Score> {
    await sleep(5);
    const same = JSON.stringify(reply.output) === JSON.stringify(kase.expected) ? 1 : 0;
    return { value: same, metrics: { exact: same } };
  }`;

const newest = (dir: string): Snapshot => newestSnapshot(join(dir, RESULTS));
const scores = (s: Snapshot) =>
  Object.fromEntries(s.results.map((r) => [`${r.experimentId} ${r.caseKey}`, [r.status, r.score]]));

describe('a scorer whose call returns a promise', () => {
  it('grades like the synchronous one in compare, verify and rescore', async () => {
    const dir = dirs.inRepo('async-scorer-');
    writeRecordingSuite(dir, 6);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `async-scorer-${randomUUID()}`,
      RECORDING_API_KEY: 'test-key',
      CALL_DELAY_MS: '5',
      RECORD_FILE: recordFileIn(dir, 'calls'),
    };
    // The synchronous scorer, unchanged, first: the grades to match.
    const sync = await runCliLong(['compare', '--no-open', '--no-cache'], { cwd: dir, env });
    expect(sync.code, sync.stderr).toBe(0);
    const expected = scores(newest(dir));
    expect(Object.values(expected).some(([, score]) => score === 1)).toBe(true);
    expect(Object.values(expected).some(([, score]) => score === 0)).toBe(true);

    editFile(join(dir, 'evals/eval_helper.ts'), (text) => {
      expect(text).toContain(SYNC_CALL);
      return text.replace(SYNC_CALL, ASYNC_CALL);
    });
    const verify = await runCli(['verify'], { cwd: dir, env });
    expect(verify.code, verify.stderr + verify.stdout).toBe(0);
    // Each expected answer graded by the awaited score: full marks, so no warning of a scorer bug.
    expect(verify.stderr + verify.stdout).not.toContain('less than full marks');

    const run = await runCliLong(['compare', '--no-open', '--no-cache'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    const asyncRun = newest(dir);
    expect(scores(asyncRun)).toEqual(expected);

    const rescore = await runCli(['rescore', asyncRun.runId, '--display', 'tui'], { cwd: dir, env });
    expect(rescore.code, rescore.stderr).toBe(0);
    const rescored = newest(dir);
    expect(rescored.rescoreOf?.runId).toBe(asyncRun.runId);
    expect(scores(rescored)).toEqual(expected);
  }, 180_000);
});
