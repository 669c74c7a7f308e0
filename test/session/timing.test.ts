import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The marks are read at module load from the environment, so each case runs in a process of its own.
const TIMING = join(import.meta.dirname, '..', '..', 'src', 'timing.ts');
const SCRIPT = `const { mark } = await import(${JSON.stringify(TIMING)}); for (let i = 0; i < 3e7; i++); mark('worked');`;

function marks(env: NodeJS.ProcessEnv): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  expect(run.status).toBe(0);
  return run.stderr;
}

describe('mark', () => {
  it('prints nothing without LLM_EVALS_TIMINGS', () => {
    expect(marks({ LLM_EVALS_TIMINGS: '' })).toBe('');
  });

  it('prints the wall time, the CPU used so far and the resident memory at each mark', () => {
    const line = marks({ LLM_EVALS_TIMINGS: '1' });
    const match =
      /^timing (\d+\.\d{3})s cpu (\d+\.\d{3})s rss (\d+) MB worked \(\d{4}-\d\d-\d\dT[\d:.]+Z\)\n$/.exec(
        line,
      );
    expect(match, line).not.toBeNull();
    // A busy loop before the mark: the CPU it used shows, and no more than the process could use in its time (2
    // threads of ours at most here, with slack for the loader's own).
    const [wall, cpu] = [Number(match![1]), Number(match![2])];
    expect(cpu).toBeGreaterThan(0.01);
    expect(cpu).toBeLessThan(wall * 4);
    // A node process holds tens of megabytes at the least, and this one far less than a gigabyte.
    expect(Number(match![3])).toBeGreaterThan(10);
    expect(Number(match![3])).toBeLessThan(1024);
  });
});
