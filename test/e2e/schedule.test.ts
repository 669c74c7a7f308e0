import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli.ts';
import { writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { CLOSED, until } from '../helpers/until.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// D5 through the real CLI on the shared test server: a schedule firing every 2 s with a worker of the suite, the
// change since the previous run, an edited expected.json making a run `regressed`, pause/unpause/trigger/delete,
// and `diff` of two saved snapshots with no Temporal at all.

const dirs = new TempDirs();
const started: CliProcess[] = [];

afterAll(() => {
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  dirs.removeAll();
});

/** What `schedule show --json` prints, as far as these tests read it. */
interface Shown {
  schedule: { id: string; name: string; paused: boolean; fired: number; maxDrop?: number };
  runs: {
    runId: string;
    state: string;
    scores: { contender: string; dataset: string; score: number | null }[];
  }[];
  change?: { before: { runId: string }; after: { runId: string }; rows: unknown[] };
  workers: { identity: string }[];
}

describe('scheduled regression runs (D5) through the CLI', () => {
  it('fires every 2 s, shows the change, regresses on a drop, pauses, triggers, deletes; diff works offline', async () => {
    const dir = dirs.inRepo('schedule-');
    writeRecordingSuite(dir, 4);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `schedule-${randomUUID()}`,
      RECORDING_API_KEY: 'test-key',
      CALL_DELAY_MS: '20',
      COLUMNS: '200',
    };
    const cli = (args: string[], cwd = dir) => runCli(args, { cwd, env });
    const show = async () => {
      const out = await cli(['schedule', 'show', 'weekly', '--json']);
      expect(out.code, out.stderr).toBe(0);
      return JSON.parse(out.stdout) as Shown;
    };

    const created = await cli(['schedule', 'create', 'weekly', '--every', '2s', '--max-drop', '5']);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^llm-evals\/schedule-[^/]+-[0-9a-f]{8}\/weekly$/);
    expect(created.stderr).toContain('llm-evals worker');

    // Another shell (another process, from a folder below the project) lists it.
    const listed = await cli(['schedule', 'list'], join(dir, 'evals'));
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(/weekly\s+│ every 2s\s+│ active/);

    // Bad input is exit 2 with one message naming the flag.
    const twice = await cli(['schedule', 'create', 'weekly', '--every', '2s']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('a schedule of this name exists');
    const neither = await cli(['schedule', 'create', 'other']);
    expect([neither.code, neither.stderr]).toEqual([2, expect.stringContaining('--every/--cron')]);

    // Without a worker, fires wait and `show` says so.
    const idle = await cli(['schedule', 'show', 'weekly']);
    expect(idle.code, idle.stderr).toBe(0);
    expect(idle.stdout).toContain('workers:  none has polled');

    const worker = startCli(['worker'], { cwd: dir, env, timeoutMs: 300_000 });
    started.push(worker);
    const two = await until('two completed fires', async () => {
      const s = await show();
      return s.runs.filter((r) => r.state === 'completed').length >= 2 ? s : undefined;
    });
    expect(two.change).toBeDefined();
    expect(two.workers.length).toBeGreaterThan(0);
    const text = await cli(['schedule', 'show', 'weekly']);
    expect(text.stdout).toContain('change since');
    expect(text.stdout).toMatch(/rec\/beta\s+│ 50\.0% → 50\.0% \(±0\.0\)/);
    expect(text.stdout).toContain('bar:      max drop 5 points');
    console.log(`schedule show after two fires:\n${text.stdout}`);

    // Paused, it stops firing; once the run going on ends, no new one starts.
    expect((await cli(['schedule', 'pause', 'weekly', '--note', 'editing cases'])).code).toBe(0);
    const quiet = await until('the runs to close', async () => {
      const s = await show();
      return s.runs.every((r) => CLOSED.includes(r.state)) ? s : undefined;
    });
    expect(quiet.schedule.paused).toBe(true);
    await sleep(4500);
    expect((await show()).runs.length).toBe(quiet.runs.length);
    const before = quiet.runs[0]!.runId;

    // A lineup broken since `create` fails the fire before any call, and `show` says why in the planner's words.
    const lineup = join(dir, 'evals/.llm-evals.config.yml');
    const good = readFileSync(lineup, 'utf8');
    writeFileSync(lineup, good + 'bogus_key: 1\n');
    expect((await cli(['schedule', 'trigger', 'weekly'])).code).toBe(0);
    const failed = await until('the failed fire', async () => {
      const out = await cli(['schedule', 'show', 'weekly']);
      return /failed before its run: .*bogus_key: unknown key/.exec(out.stdout) ? out.stdout : undefined;
    });
    expect(failed).toContain('.llm-evals.config.yml');
    writeFileSync(lineup, good);

    // An edited expected answer: rec/beta now answers it wrong (it drops the `tricky` key), 50 points down.
    const edited = join(dir, 'evals/datasets/south/cases/clear/001/expected.json');
    writeFileSync(edited, JSON.stringify({ id: 'south/clear/001', tricky: true }) + '\n');
    expect((await cli(['schedule', 'trigger', 'weekly'])).code).toBe(0);
    const fired = await until('the triggered run to close', async () => {
      const s = await show();
      const run = s.runs[0];
      return run && run.runId !== before && CLOSED.includes(run.state) ? run : undefined;
    });
    expect(fired.state).toBe('regressed');
    const runId = fired.runId;

    const report = await cli(['report', runId, '--format', 'json']);
    expect(report.code).toBe(1);
    expect(report.stderr).toContain(`run ${runId} regressed: rec/beta on south: exact 50.0% → 0.0%`);
    const snapshot = JSON.parse(report.stdout) as {
      status: string;
      regression: string[];
      change: {
        before: { runId: string };
        cases: { changed: string[] };
        rows: { score: { delta: number } }[];
      };
      trend: { runs: unknown[] };
    };
    expect(snapshot.status).toBe('regressed');
    expect(snapshot.change.before.runId).toBe(before);
    expect(snapshot.change.cases.changed).toEqual(['south/clear/001']);
    expect(Math.min(...snapshot.change.rows.map((r) => r.score.delta))).toBeCloseTo(-0.5);
    expect(snapshot.trend.runs.length).toBeGreaterThanOrEqual(3);

    const tui = await cli(['report', runId]);
    expect(tui.code).toBe(1);
    expect(tui.stdout).toContain('cases edited (1): south/clear/001');
    expect(tui.stdout).toMatch(/regressed:\n\s+rec\/beta on south/);
    const status = await cli(['status', runId]);
    expect(status.code).toBe(1);
    expect(status.stdout).toContain(`run ${runId} (recording): regressed`);
    expect(status.stdout).toContain('50.0% → 0.0% (-50.0)');
    const runs = await cli(['runs', '--json', '--limit', '1000']);
    const listedRun = (JSON.parse(runs.stdout) as { runId: string; state: string }[]).find(
      (r) => r.runId === runId,
    );
    expect(listedRun?.state).toBe('regressed');

    // Unpaused, it fires again on its own.
    expect((await cli(['schedule', 'unpause', 'weekly'])).code).toBe(0);
    await until('a fire after unpause', async () => {
      const s = await show();
      return !s.schedule.paused && s.runs[0]?.runId !== runId ? true : undefined;
    });

    // Two saved snapshots compare offline: no Temporal reachable at all.
    writeFileSync(join(dir, 'a.json'), (await cli(['report', before, '--format', 'json'])).stdout);
    writeFileSync(join(dir, 'b.json'), report.stdout);
    const offline = { ...env, TEMPORAL_ADDRESS: '127.0.0.1:1' };
    const diff = await runCli(['diff', 'a.json', 'b.json'], { cwd: dir, env: offline });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain(`change since ${before}`);
    expect(diff.stdout).toMatch(/south\s+│ rec\/beta\s+│ 50\.0% → 0\.0% \(-50\.0\)/);
    expect(diff.stdout).toContain('cases edited (1): south/clear/001');
    console.log(`diff a.json b.json:\n${diff.stdout}`);
    const json = await runCli(['diff', 'a.json', 'b.json', '--format', 'json'], { cwd: dir, env: offline });
    expect(JSON.parse(json.stdout)).toMatchObject({ cases: { changed: ['south/clear/001'] } });
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toContain('"version"');

    // Deleted, it is gone from the list and `show` names it; its runs stay.
    expect((await cli(['schedule', 'delete', 'weekly'])).code).toBe(0);
    const gone = await cli(['schedule', 'show', 'weekly']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('no such schedule');
    expect((await cli(['schedule', 'list'])).stdout).not.toContain('weekly');
    expect((await cli(['status', runId])).stdout).toContain('regressed');
    worker.child.kill('SIGTERM');
    await worker.done;
  }, 300_000);
});

describe('backfill and bad input (D5)', () => {
  it('backfill takes the fires of a past range, which wait for a worker; bad flags are exit 2', async () => {
    const dir = dirs.inRepo('schedule-backfill-');
    writeRecordingSuite(dir, 2);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `schedule-${randomUUID()}`,
      RECORDING_API_KEY: 'test-key',
    };
    const cli = (args: string[]) => runCli(args, { cwd: dir, env });
    for (const [args, message] of [
      [['--every', '2q'], '--every: takes a duration'],
      [['--every', '1h', '--cron', '0 3 * * 1'], 'give exactly one'],
      [['--every', '1h', '--max-drop', '200'], '--max-drop takes a number from 0 to 100'],
      [['--every', '1h', '-d', 'nowhere'], 'selects no case'],
    ] as const) {
      const bad = await cli(['schedule', 'create', 'hourly', ...args]);
      expect([bad.code, bad.stderr], args.join(' ')).toEqual([2, expect.stringContaining(message)]);
      expect(bad.stderr).not.toMatch(/\n\s+at /);
    }
    const badName = await cli(['schedule', 'create', '../x', '--every', '1h']);
    expect([badName.code, badName.stderr]).toEqual([2, expect.stringContaining('is not a schedule name')]);

    expect((await cli(['schedule', 'create', 'hourly', '--every', '1h', '-d', 'north'])).code).toBe(0);
    const to = new Date(Date.now() - 3_600_000);
    const from = new Date(to.getTime() - 2 * 3_600_000);
    const backfill = await cli([
      'schedule',
      'backfill',
      'hourly',
      '--from',
      from.toISOString(),
      '--to',
      to.toISOString(),
    ]);
    expect(backfill.code, backfill.stderr).toBe(0);
    const shown = await until('the backfilled fire', async () => {
      const out = await cli(['schedule', 'show', 'hourly', '--json']);
      const s = JSON.parse(out.stdout) as {
        schedule: { fired: number; spec: { flags: Record<string, unknown> } };
        problems: { state: string; scheduledAt: string }[];
      };
      return s.problems.length ? s : undefined;
    });
    expect(shown.schedule.spec.flags).toEqual({ dataset: ['north'] });
    expect(shown.problems[0]!.state).toBe('planning');
    const at = new Date(shown.problems[0]!.scheduledAt).getTime();
    expect(at).toBeGreaterThanOrEqual(from.getTime());
    expect(at).toBeLessThanOrEqual(to.getTime());
    const text = await cli(['schedule', 'show', 'hourly']);
    expect(text.stdout).toContain('waiting for a worker of the suite to plan it');
    expect(text.stdout).toContain('plans:    -d "north"');
    const reversed = await cli([
      'schedule',
      'backfill',
      'hourly',
      '--from',
      to.toISOString(),
      '--to',
      from.toISOString(),
    ]);
    expect([reversed.code, reversed.stderr]).toEqual([2, expect.stringContaining('must come after --from')]);
    expect((await cli(['schedule', 'delete', 'hourly'])).code).toBe(0);
  }, 120_000);
});
