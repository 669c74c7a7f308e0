import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const count = (text: string) => Number(text.replace(/,/g, ''));

/** `used vs estimated: 1,053 vs 1,086 (−3%) tokens in, 501 vs 501 (+0%) tokens out, …` as numbers. */
function closingLine(stderr: string) {
  const m = /used vs estimated: ([\d,]+) vs ([\d,]+) \S+ tokens in, ([\d,]+) vs ([\d,]+) \S+ tokens out/.exec(
    stderr,
  );
  if (!m) throw new Error(`no closing line in:\n${stderr}`);
  return {
    inUsed: count(m[1]!),
    inEstimated: count(m[2]!),
    outUsed: count(m[3]!),
    outEstimated: count(m[4]!),
  };
}

describe("the toy suite's estimate holds, through the real CLI", () => {
  let dryRun: CliResult;
  let run: CliResult;

  beforeAll(async () => {
    const dir = dirs.toySuite();
    const env = { TEMPORAL_ADDRESS: temporalAddress(), LLM_EVALS_TASK_QUEUE: `estimate-${Date.now()}` };
    // Every dataset, the agent's (weather) too: a model step per tool call and one to answer, each estimated.
    const datasets = ['-d', 'animals,capitals,colors,weather'];
    dryRun = await runCli(['compare', '-n', ...datasets], { cwd: dir, env });
    run = await runCli(['compare', ...datasets, '--display', 'tui', '--no-open'], { cwd: dir, env });
  }, 120_000);

  it("closes the run with what it used against compare -n's estimate", () => {
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(run.code, run.stderr).toBe(0);
    const m = /estimated: ([\d,]+) tokens in, ([\d,]+) tokens out/.exec(dryRun.stdout);
    expect(m, dryRun.stdout).not.toBeNull();
    const line = closingLine(run.stderr);
    expect([line.inEstimated, line.outEstimated]).toEqual([count(m![1]!), count(m![2]!)]);
  });

  it('counts a verdict for the judged dataset alone, as many as the run asks the judge', () => {
    // 3 contenders × 3 free-text cases (capitals): the JSON datasets are graded by code, not by the judge.
    expect(dryRun.stdout + dryRun.stderr).toContain('judge: 9 calls (9 replies × 1 sample × 1 judge)');
    const asked = /judge: (\d+) calls(?: \((\d+) from the cache\))?/.exec(run.stderr);
    expect(asked, run.stderr).not.toBeNull();
    expect(Number(asked![1]) + Number(asked![2] ?? 0)).toBe(9);
  });

  it('is within ±25 % of the tokens used, in and out', () => {
    const line = closingLine(run.stderr);
    const off = (used: number, estimated: number) => Math.abs(used / estimated - 1);
    expect(off(line.inUsed, line.inEstimated), run.stderr).toBeLessThanOrEqual(0.25);
    expect(off(line.outUsed, line.outEstimated), run.stderr).toBeLessThanOrEqual(0.25);
  });
});

describe("the judge's estimate holds against a run, through the real CLI", () => {
  it("measures a verdict's tokens in the newest run saved where the run saves (--destination): within ±25 % of what the next run's judge line reports", async () => {
    const dir = dirs.toySuite();
    const env = { TEMPORAL_ADDRESS: temporalAddress(), LLM_EVALS_TASK_QUEUE: `estimate-judge-${Date.now()}` };
    const saved = ['--destination', dirs.os('llm-evals-estimate-runs-')];
    const compare = (...flags: string[]) =>
      runCli(['compare', '-d', 'capitals', '--display', 'tui', '--no-open', ...saved, ...flags], {
        cwd: dir,
        env,
      });
    const first = await compare();
    expect(first.code, first.stderr).toBe(0);
    const dryRun = await runCli(['compare', '-n', '-d', 'capitals', ...saved], { cwd: dir, env });
    expect(dryRun.code, dryRun.stderr).toBe(0);
    // Where no run is saved, the verdict's size is guessed: the run saved in the destination is what was read.
    const guessed = await runCli(['compare', '-n', '-d', 'capitals'], { cwd: dir, env });
    expect(guessed.code, guessed.stderr).toBe(0);
    // Every verdict asked again, none from the cache: what the judge really writes.
    const run = await compare('--no-cache');
    expect(run.code, run.stderr).toBe(0);
    const estimate = /judge: 9 calls .*estimated ([\d,]+) tokens in, ([\d,]+) tokens out/;
    const estimated = estimate.exec(dryRun.stdout);
    const used = /judge: 9 calls, ([\d,]+) tokens in, ([\d,]+) out/.exec(run.stderr);
    expect(estimated, dryRun.stdout).not.toBeNull();
    expect(used, run.stderr).not.toBeNull();
    expect(estimate.exec(guessed.stdout)?.[2], guessed.stdout).not.toBe(estimated![2]);
    const off = (i: number) => Math.abs(count(used![i]!) / count(estimated![i]!) - 1);
    expect(off(1), `${estimated![0]}\n${used![0]}`).toBeLessThanOrEqual(0.25);
    expect(off(2), `${estimated![0]}\n${used![0]}`).toBeLessThanOrEqual(0.25);
  }, 120_000);
});
