import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// Never a wrong word (issue 28): a bad --cron or --timezone exited 1 with the library's raw message ("Minute is not
// in range [0-59]", "unknown time zone …"); it is a usage error, exit 2, named in our words, and no schedule is made.

const dirs = new TempDirs();
let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  dir = dirs.toySuite();
  env = { TEMPORAL_ADDRESS: temporalAddress(), LLM_EVALS_TASK_QUEUE: `schedule-flags-${randomUUID()}` };
});
afterAll(() => dirs.removeAll());

describe('schedule create with a bad --cron or --timezone', () => {
  it.each<[string, string[], string]>([
    [
      'a minute out of range',
      ['--cron', '61 3 * * *'],
      '--cron: "61 3 * * *" is refused by Temporal (Minute is not in range [0-59]); give one such as "0 3 * * 1"',
    ],
    ['too few fields', ['--cron', 'bogus'], '--cron: "bogus" is refused by Temporal ('],
    [
      'an unknown zone',
      ['--cron', '0 3 * * 1', '--timezone', 'Mars/Olympus'],
      '--timezone: "Mars/Olympus" is no time zone; give an IANA name such as Europe/Paris or UTC',
    ],
    ['a zone without --cron', ['--every', '1w', '--timezone', 'UTC'], '--timezone: applies to --cron only'],
  ])('%s: exit 2, our message', async (_, flags, message) => {
    const result = await runCli(['schedule', 'create', 'nightly', ...flags], { cwd: dir, env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(`llm-evals: ${message}`);
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(result.stderr).not.toContain('run again with -v');
  });

  it('made no schedule, and a read of the schedules prints no info box', async () => {
    const list = await runCli(['schedule', 'list'], { cwd: dir, env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('no schedules in this project');
    expect(list.stderr).toBe('');
  });
});
