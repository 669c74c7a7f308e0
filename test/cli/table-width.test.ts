import stringWidth from 'string-width';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliLong } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const widest = (text: string) => Math.max(0, ...text.split('\n').map((line) => stringWidth(line)));

describe('tables fit COLUMNS through the real CLI', () => {
  it.each([
    ['the leaderboard of a whole compare', ['compare', '--no-open']],
    ['the dry run matrix', ['compare', '-n']],
    ['the cases table', ['cases']],
  ])('%s: no line wider than COLUMNS=80', async (_, args) => {
    const copy = dirs.toySuite();
    const env = {
      COLUMNS: '80',
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `table-width-${process.pid}-${Date.now()}`,
    };
    const result = await runCliLong(args, { cwd: copy, env, timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/┌─/);
    expect(widest(result.stdout), result.stdout).toBeLessThanOrEqual(80);
    const box = result.stderr.split('\n').filter((line) => /^[┌│└]/.test(line));
    expect(widest(box.join('\n'))).toBeLessThanOrEqual(80);
  });

  it('keeps the natural width without COLUMNS when stdout is no terminal', async () => {
    const result = await runCliLong(['compare', '-n'], { cwd: dirs.toySuite() });
    expect(result.code, result.stderr).toBe(0);
    expect(widest(result.stdout)).toBeGreaterThan(80);
  });
});
