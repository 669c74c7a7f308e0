import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli.ts';
import { writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { CLOSED, until } from '../helpers/until.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// Issue 32: `schedule show NAME --flaky N` lists the cases that flipped most over the schedule's last N runs, through
// the real CLI with a worker of the suite and triggered fires; one case is answered wrong in the middle fire only.

const dirs = new TempDirs();
const started: CliProcess[] = [];

afterAll(() => {
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  dirs.removeAll();
});

interface Flips {
  flaky?: {
    runs: number;
    cases: { contender: string; caseKey: string; flips: number; runs: number; right: boolean }[];
  };
}

describe('schedule show --flaky (issue 32)', () => {
  it('counts a case that went right, wrong, right as two flips over three runs', async () => {
    const dir = dirs.inRepo('schedule-flaky-');
    writeRecordingSuite(dir, 4);
    const wrongFile = join(dir, 'wrong.txt');
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `schedule-flaky-${randomUUID()}`,
      RECORDING_API_KEY: 'test-key',
      WRONG_FILE: wrongFile,
      CALL_DELAY_MS: '10',
      COLUMNS: '200',
    };
    const cli = (args: string[]) => runCli(args, { cwd: dir, env });
    const fire = async (count: number) => {
      expect((await cli(['schedule', 'trigger', 'nightly'])).code).toBe(0);
      await until(`fire ${count}`, async () => {
        const out = await cli(['schedule', 'show', 'nightly', '--json']);
        const runs = (JSON.parse(out.stdout) as { runs: { state: string }[] }).runs;
        return runs.length >= count && CLOSED.includes(runs[0]!.state) ? true : undefined;
      });
    };

    // Bad input first: one message naming the flag, exit 2.
    const bad = await cli(['schedule', 'show', 'nightly', '--flaky', '0']);
    expect([bad.code, bad.stderr]).toEqual([
      2,
      expect.stringContaining('--flaky takes a whole number ≥ 1, got "0"'),
    ]);

    expect((await cli(['schedule', 'create', 'nightly', '--every', '1d'])).code).toBe(0);
    const worker = startCli(['worker'], { cwd: dir, env, timeoutMs: 300_000 });
    started.push(worker);

    await fire(1);
    writeFileSync(wrongFile, 'rec/alpha north/clear/001\n');
    await fire(2);
    rmSync(wrongFile);
    await fire(3);

    const json = await cli(['schedule', 'show', 'nightly', '--flaky', '3', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const { flaky } = JSON.parse(json.stdout) as Flips;
    expect(flaky).toEqual({
      runs: 3,
      cases: [expect.objectContaining({ caseKey: 'north/clear/001', flips: 2, runs: 3, right: true })],
    });
    // Over the last two runs it flipped once.
    const two = JSON.parse(
      (await cli(['schedule', 'show', 'nightly', '--flaky', '2', '--json'])).stdout,
    ) as Flips;
    expect(two.flaky?.cases.map((c) => [c.caseKey, c.flips, c.runs])).toEqual([['north/clear/001', 1, 2]]);

    const text = await cli(['schedule', 'show', 'nightly', '--flaky', '3']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      'flaky cases: 1 flipped between right and wrong over the last 3 judged runs, most flips first:',
    );
    expect(text.stdout).toMatch(/│ north\/clear\/001\s+│ rec\/alpha\s+│\s+2 │\s+3 │ right/);
    console.log(`schedule show nightly --flaky 3:\n${text.stdout}`);
    // Without the flag, show reads no run's results for it and prints no such section.
    expect((await cli(['schedule', 'show', 'nightly'])).stdout).not.toContain('flaky cases');

    // The newest run's report draws the trend with each point's 95 % interval over its cases: rec/alpha on north
    // had 2 cases, both right, then one, then both (a bootstrap of 0 and 1 spans 0 to 1).
    const newest = (JSON.parse(json.stdout) as { runs: { runId: string }[] }).runs[0]!.runId;
    const report = await cli(['report', newest, '--format', 'json']);
    expect(report.code, report.stderr).toBe(0);
    const { trend } = JSON.parse(report.stdout) as {
      trend: { runs: { intervals?: { contender: string; dataset: string; ci95: [number, number] }[] }[] };
    };
    const alphaNorth = trend.runs.map(
      (r) =>
        r.intervals?.find((x) => x.contender.startsWith('rec:rec/alpha ') && x.dataset === 'north')?.ci95,
    );
    expect(alphaNorth).toEqual([
      [1, 1],
      [0, 1],
      [1, 1],
    ]);
    writeFileSync(join(dir, 'newest.json'), report.stdout);
    const html = await cli(['render', 'newest.json', '--format', 'html', '-o', '-']);
    expect(html.code, html.stderr).toBe(0);
    // 4 series (2 models × 2 datasets) × 3 runs, each with 2 cases: a whisker for every point.
    expect(html.stdout.match(/class="whisker"/g)?.length).toBe(12);

    expect((await cli(['schedule', 'delete', 'nightly'])).code).toBe(0);
    worker.child.kill('SIGTERM');
    await worker.done;
  }, 300_000);
});
