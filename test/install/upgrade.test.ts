import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../helpers/cli.ts';
import { CALL_MS, IN_FLIGHT, recordingEnv, RUN_FLAGS } from '../helpers/durable.ts';
import { packCheckout } from '../helpers/pack.ts';
import {
  expectResumedCleanly,
  recordFileIn,
  waitForCalls,
  writeRecordingSuite,
  type RecordingSuite,
} from '../helpers/recording-suite.ts';
import { reportOf } from '../helpers/run-reads.ts';
import { REPO, TempDirs } from '../helpers/suite-dir.ts';
import { freeServerPort } from '../helpers/temporal.ts';

// An upgrade in the middle of a run: a project compares with the previous release (0.1.0, its packed tarball kept in
// test/fixtures), is interrupted, installs this release's tarball and resumes. The run finishes on this release's
// workflow code and workers, and no finished case is paid again.

const PREVIOUS = join(REPO, 'test', 'fixtures', 'llm-evals-0.1.0.tgz');
const CASES = 20;
const dirs = new TempDirs();
let project: string;
let suite: RecordingSuite;
let env: NodeJS.ProcessEnv;
let current: string;

function npm(args: string[]): void {
  const run = spawnSync('npm', args, { cwd: project, env: { ...process.env, ...env }, encoding: 'utf8' });
  expect(run.status, run.stderr).toBe(0);
}

const bin = () => join(project, 'node_modules', 'llm-evals', 'bin', 'llm-evals.mjs');
const cli = (args: string[], record: string, timeoutMs = 240_000) =>
  startCli(args, { cwd: project, env: { ...env, RECORD_FILE: record }, bin: bin(), timeoutMs });

beforeAll(async () => {
  current = packCheckout(dirs.os('llm-evals-pack-'));
  project = dirs.os('llm-evals-upgrade-');
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'upgrading', private: true, type: 'module' }),
  );
  suite = writeRecordingSuite(project, CASES);
  env = {
    ...recordingEnv(recordFileIn(project), 'upgrade'),
    TEMPORAL_ADDRESS: '',
    LLM_EVALS_STATE_DIR: join(project, '.state'),
    LLM_EVALS_TEMPORAL_PORT: String(await freeServerPort()),
  };
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', PREVIOUS]);
}, 600_000);

afterAll(async () => {
  if (project) await cli(['server', 'stop'], recordFileIn(project, 'stop'), 60_000).done;
  dirs.removeAll();
});

describe('a run started by the previous release', () => {
  it('is finished by this one after an upgrade mid-run: every case called, none finished paid again', async () => {
    const record = recordFileIn(project, 'upgrade');
    const before = cli(['compare', ...RUN_FLAGS, '--no-open'], record);
    const runId = (await before.waitFor(/run (\S+) started/))[1]!;
    await waitForCalls(record, suite.calls.length / 2, before.done);
    const interruptedAt = Date.now();
    before.child.kill('SIGINT');
    const stopped = await before.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain(`llm-evals resume ${runId}`);

    npm(['install', '--no-audit', '--no-fund', '--prefer-offline', current]);
    const version = await cli(['--version'], record, 60_000).done;
    expect(version.stdout.trim()).toContain('0.2.0');

    const resumed = await cli(['resume', runId, '--no-open'], record).done;
    expect(resumed.code, resumed.stderr).toBe(0);

    // What the same suite gives uninterrupted, on this release.
    const baselineRecord = recordFileIn(project, 'baseline');
    const baseline = await cli(['compare', ...RUN_FLAGS, '--no-open'], baselineRecord).done;
    expect(baseline.code, baseline.stderr).toBe(0);
    const baselineId = /run (\S+) started/.exec(baseline.stderr)![1]!;

    const { report } = await reportOf(project, env, runId);
    const expected = (await reportOf(project, env, baselineId)).report;
    expectResumedCleanly(expect, suite, record, {
      interruptedAt,
      inFlight: IN_FLIGHT,
      callMs: CALL_MS,
      report,
      baseline: expected,
    });
  }, 600_000);
});
