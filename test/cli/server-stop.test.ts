import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { ownServerEnv, startServer } from '../helpers/durable.ts';
import { recordFileIn, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs } from '../helpers/suite-dir.ts';

// Never a wrong word (issue 28): from project B, `server stop` printed "stopped" and exited 0 while project A's run
// had cases to go; A then waited for ever. With runs going on on the embedded server, it refuses, names them and
// their projects, and stops only with --force.

const dirs = new TempDirs();
let a: string;
let b: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  a = dirs.inRepo('server-stop-a-');
  b = dirs.inRepo('server-stop-b-');
  writeRecordingSuite(a, 4);
  writeRecordingSuite(b, 2);
  // One embedded server for both projects, as a user has (its state under A's folder here).
  env = {
    ...(await ownServerEnv(a)),
    LLM_EVALS_TASK_QUEUE: `server-stop-${randomUUID()}`,
    RECORDING_API_KEY: 'test-key',
    RECORD_FILE: recordFileIn(a),
  };
  await startServer(a, env);
}, 60_000);

afterAll(async () => {
  await runCli(['server', 'stop', '--force'], { cwd: a, env });
  dirs.removeAll();
});

describe('server stop with a run going on', () => {
  it('refuses from another project, naming the run and its project; --force stops it', async () => {
    const start = await runCli(['start', '--no-worker'], { cwd: a, env });
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();

    const refused = await runCli(['server', 'stop'], { cwd: b, env });
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('not stopped: a run is going on on it:');
    expect(refused.stderr).toMatch(
      new RegExp(`${runId}\\s+\\S+\\s+${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    );
    expect(refused.stderr).toContain('--force stops the server anyway');
    const status = await runCli(['server', 'status'], { cwd: b, env });
    expect(status.code).toBe(0);

    const forced = await runCli(['server', 'stop', '--force'], { cwd: b, env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/^stopped \(pid \d+\)\n$/);
  }, 120_000);
});
