import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli.ts';
import { writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { CLOSED, until } from '../helpers/until.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// A schedule's page and the runs list's schedule filter on real scheduled runs: a case answered right, then wrong (its
// expected answer edited), then right again flips twice, and the page says so.

const dirs = new TempDirs();
const started: CliProcess[] = [];

afterAll(() => {
  for (const cli of started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  dirs.removeAll();
});

describe("the view's schedule page", () => {
  it('lists the case that flipped over the runs, beside the trend; the runs list filters by the schedule', async () => {
    const dir = dirs.inRepo('view-schedule-');
    writeRecordingSuite(dir, 4);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `view-schedule-${randomUUID()}`,
      RECORDING_API_KEY: 'test-key',
      CALL_DELAY_MS: '20',
    };
    const cli = async (args: string[]) => {
      const out = await runCli(args, { cwd: dir, env });
      expect(out.code, out.stderr).toBe(0);
      return out.stdout;
    };
    const runsOf = async () =>
      (
        JSON.parse(await cli(['schedule', 'show', 'nightly', '--json'])) as {
          runs: { runId: string; state: string }[];
        }
      ).runs;
    const id = (await cli(['schedule', 'create', 'nightly', '--every', '2s'])).trim();
    const worker = startCli(['worker'], { cwd: dir, env, timeoutMs: 300_000 });
    started.push(worker);
    await until('a completed fire', async () =>
      (await runsOf()).some((r) => r.state === 'completed') ? true : undefined,
    );
    await cli(['schedule', 'pause', 'nightly']);
    const settled = () =>
      until('the runs to close', async () =>
        (await runsOf()).every((r) => CLOSED.includes(r.state)) ? true : undefined,
      );
    const fire = async () => {
      const before = (await runsOf()).map((r) => r.runId);
      await cli(['schedule', 'trigger', 'nightly']);
      return until('the triggered run to close', async () => {
        const run = (await runsOf()).find((r) => !before.includes(r.runId));
        return run && CLOSED.includes(run.state) ? run : undefined;
      });
    };
    // rec/beta drops the `tricky` key: wrong while the expected answer has it, right again once it is back.
    const expected = join(dir, 'evals/datasets/south/cases/clear/001/expected.json');
    // A fire the schedule made just before the pause reads the suite when it starts: let it close before the edit.
    await settled();
    writeFileSync(expected, JSON.stringify({ id: 'south/clear/001', tricky: true }) + '\n');
    await fire();
    writeFileSync(expected, JSON.stringify({ id: 'south/clear/001' }) + '\n');
    const last = await fire();
    const runs = await runsOf();

    const view = startCli(['view', '--no-open', '--port', '0'], { cwd: dir, env, timeoutMs: 300_000 });
    started.push(view);
    const origin = (await view.waitFor(/llm-evals view: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
    const get = async (path: string) => {
      const response = await fetch(origin + path);
      expect(response.status, path).toBe(200);
      return response.text();
    };
    const page = await get(`/schedule?project=${encodeURIComponent(dir)}&name=nightly`);
    expect(page).toContain('<h2>Trend</h2>');
    expect(page).toMatch(/<figure class="trend"><svg/);
    expect(page).toMatch(/1 case went from right to wrong or back over the last \d+ finished runs/);
    const row = /<tr data-case="south\/clear\/001">.*?<\/tr>/.exec(page)?.[0] ?? '';
    expect(row).toContain('rec/beta');
    expect(row).toContain(`href="/runs/${last.runId}/case?key=south%2Fclear%2F001"`);
    expect(row).toContain('<td class="num">2</td>');
    expect(row.match(/<td class="mark (ok|err)">/g)?.slice(-3)).toEqual([
      '<td class="mark ok">',
      '<td class="mark err">',
      '<td class="mark ok">',
    ]);

    // The runs list by that schedule: its runs only, each naming it; the filter offers it by name.
    const query = `?schedule=${encodeURIComponent(id)}`;
    const list = await get(`/${query}`);
    expect(list).toContain(`<option value="${id}" selected>nightly</option>`);
    const listed = [...list.matchAll(/<tr data-run="([^"]+)"/g)].map((m) => m[1]);
    // (`schedule show` lists its last ten; the list shows every one.)
    expect(listed).toEqual(expect.arrayContaining(runs.map((r) => r.runId)));
    const counted = await get(`/fragment/runs${query}`);
    expect(counted.match(/schedule nightly<\/a>/g)?.length).toBe(listed.length);
    expect(await get(`/?schedule=${encodeURIComponent(`${id}-not`)}`)).toContain('no runs match');

    view.child.kill('SIGINT');
    await view.done;
    await cli(['schedule', 'delete', 'nightly']);
    worker.child.kill('SIGTERM');
    await worker.done;
  }, 300_000);
});
