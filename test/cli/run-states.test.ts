import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliLong, startCli, type CliProcess } from '../helpers/cli.ts';
import { recordFileIn, waitForCalls, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { editFile, TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// Never a wrong word (issue 28, "States"): a run's terminal output says the state the run is in. A cancelled run
// reads as cancelled at the top of its report and in each verdict, and exits 1 as its compare did; the commands that
// act on a run (cancel, continue, stop, rescore) say what state they found it in, and exit as the line they print.

const dirs = new TempDirs();
const started: CliProcess[] = [];
afterAll(() => {
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  dirs.removeAll();
});

/** The suite's 40 cases over 2 datasets, with calls slow enough (0.6 s, 4 at a time) that a cancel finds most left. */
const CASES = 40;
let dir: string;
let env: NodeJS.ProcessEnv;
const cli = (args: string[]) => runCli(args, { cwd: dir, env });

beforeAll(() => {
  dir = dirs.inRepo('run-states-');
  writeRecordingSuite(dir, CASES);
  env = {
    TEMPORAL_ADDRESS: temporalAddress(),
    LLM_EVALS_TASK_QUEUE: `run-states-${randomUUID()}`,
    RECORDING_API_KEY: 'test-key',
    CALL_DELAY_MS: '600',
    RECORD_FILE: recordFileIn(dir, 'calls'),
  };
});

describe('a cancelled run', () => {
  it('reads as cancelled in compare and report, at the top and in each verdict, and both exit 1', async () => {
    const compare = startCli(['compare', '-p', '2', '-j', '2', '--no-open'], {
      cwd: dir,
      env,
      timeoutMs: 180_000,
    });
    started.push(compare);
    const runId = (await compare.waitFor(/run (\S+) started/))[1]!;
    await waitForCalls(env.RECORD_FILE!, 8, compare.done);
    const cancel = await cli(['cancel', runId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain(`cancelled run ${runId}`);

    const ran = await compare.done;
    expect(ran.code, ran.stderr).toBe(1);
    const headline = new RegExp(`^Run ${runId} was cancelled: (\\d+) of 80 case results\\.`);
    expect(ran.stdout).toMatch(headline);
    const done = Number(headline.exec(ran.stdout)![1]);
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(80);
    // Every verdict on fewer results than planned says on how many, and why.
    const verdicts = ran.stdout.split('\n').filter((l) => /^(north|south|all datasets): /.test(l));
    expect(verdicts).toHaveLength(3);
    expect(verdicts.at(-1)).toContain(`(on ${done} of 80 planned results: the run was cancelled)`);
    for (const line of verdicts)
      expect(line).toMatch(/\(on \d+ of (40|80) planned results: the run was cancelled\)/);

    const report = await cli(['report', runId, '--display', 'tui']);
    expect(report.code, report.stderr).toBe(1);
    expect(report.stdout).toMatch(headline);
    expect(report.stderr).toContain(
      `partial report: run ${runId} is cancelled; ${done} of 80 case results\n`,
    );

    // Asked again, cancel says the run already ended; continue and stop say the state they found.
    const again = await cli(['cancel', runId]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toBe(`run ${runId} is already cancelled: nothing to cancel\n`);
    for (const command of ['continue', 'stop']) {
      const answer = await cli([command, runId]);
      expect(answer.code, answer.stderr).toBe(2);
      expect(answer.stderr).toContain(
        `run "${runId}" is cancelled, not paused: ${command} answers only a run paused`,
      );
      expect(answer.stderr).not.toContain('no run');
    }
  }, 240_000);
});

describe('a completed run', () => {
  let runId: string;
  beforeAll(async () => {
    const quick = { ...env, CALL_DELAY_MS: '5' };
    const compare = await runCliLong(['compare', '-c', 'clear/001', '--no-open', '--display', 'none'], {
      cwd: dir,
      env: quick,
    });
    expect(compare.code, compare.stderr).toBe(0);
    runId = /run (\S+) started/.exec(compare.stderr)![1]!;
  }, 120_000);

  it('is not cancelled, continued or stopped: each says it completed', async () => {
    const cancel = await cli(['cancel', runId]);
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toBe(`run ${runId} is already completed: nothing to cancel\n`);
    const stop = await cli(['stop', runId]);
    expect(stop.code).toBe(2);
    expect(stop.stderr).toContain(`run "${runId}" is completed, not paused`);
    expect(stop.stderr).toContain(`llm-evals report ${runId} shows what finished`);
  });

  it('rescore exits 1 when it prints "(exit 1; --allow-failures accepts it)", as report does', async () => {
    // The scorer now throws on every reply: no contender scores a case.
    editFile(join(dir, 'evals/eval_helper.ts'), (text) =>
      text.replace(
        /(\n\s*call\(kase: Case, reply: Reply\)[^{]*\{)/,
        "$1\n    throw new Error('scorer broke');",
      ),
    );
    const rescore = await cli(['rescore', runId, '--display', 'tui']);
    expect(rescore.stderr, rescore.stdout).toContain('(exit 1; --allow-failures accepts it)');
    expect(rescore.code).toBe(1);
    const allowed = await cli(['rescore', runId, '--display', 'tui', '--allow-failures']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(readdirSync(join(dir, 'evals/results')).length).toBeGreaterThanOrEqual(3);
  });
});
