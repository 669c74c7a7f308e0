import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { snapshotFixture } from '../report/fixture.ts';

// A run stopped and resumed stood still in between: its time counts the seconds its cases were running, not the
// interruption. The saved run's cases start 10 s apart and run 2 s (alpha), 1 s (beta) and 0.5 s (gamma) each.

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

describe('time through render', () => {
  it('counts only the seconds some case was running', async () => {
    const dir = dirs.os('llm-evals-time-');
    const file = join(dir, 'run.json');
    writeFileSync(file, JSON.stringify(snapshotFixture()));
    const run = await runCli(['render', file, '--format', 'tui', '-o', '-'], {
      cwd: dir,
      env: { COLUMNS: '200' },
    });
    expect(run.code, run.stderr).toBe(0);
    const timeOf = (dataset: string, model: string) =>
      run.stdout
        .split('\n')
        .find((line) => line.startsWith(`│ ${dataset} `) && line.includes(` ${model} `))
        ?.match(/│ +([\d.]+s) +│/)?.[1];
    // Two cases of 2 s, 10 s apart: 4 s, not the 12 s from the first start to the last end.
    expect(timeOf('north', 'fake/alpha')).toBe('4.00s');
    expect(timeOf('south', 'fake/beta')).toBe('2.00s');
    expect(timeOf('north', 'other/gamma')).toBe('1.00s');
  });
});
