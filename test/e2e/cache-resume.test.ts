import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { runCliLong, startCli } from '../helpers/cli.ts';
import { recordingEnv } from '../helpers/durable.ts';
import { recordFileIn, waitForCalls, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

describe('results from the reply cache in a run stopped by Ctrl-C and resumed (D3)', () => {
  it('are kept, marked cached, and nothing is called twice', async () => {
    const dir = dirs.inRepo('cache-resume-');
    const suite = writeRecordingSuite(dir, 12);
    const record = recordFileIn(dir);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      ...recordingEnv(record, 'cache-resume'),
      LLM_EVALS_CACHE_DIR: dirs.os('llm-evals-replies-'),
    };
    // The north dataset's replies are kept by a first run: 6 cases × 2 models.
    const fill = await runCliLong(['compare', '-d', 'north', '--display', 'none'], { cwd: dir, env });
    expect(fill.code, fill.stderr).toBe(0);
    expect(suite.read(record)).toHaveLength(12);
    // The whole suite, one call in flight per experiment: stopped once the south's calls have begun.
    const cli = startCli(['compare', '-p', '1', '-j', '4', '--display', 'none'], { cwd: dir, env });
    await waitForCalls(record, 14, cli.done);
    cli.child.kill('SIGINT');
    const stopped = await cli.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    const runId = /llm-evals resume (\S+)/.exec(stopped.stderr)![1]!;
    const resumed = await runCliLong(['resume', runId, '--display', 'none'], { cwd: dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    // Every pair called once in all: the north's by the first run only, the south's by the stopped run or its resume.
    const counts = suite.countCalls(record);
    expect(counts.size).toBe(suite.calls.length);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    const results = join(dir, 'evals/results');
    const file = readdirSync(results).find((f) => f.includes(runId))!;
    const snapshot = JSON.parse(readFileSync(join(results, file), 'utf8')) as Snapshot;
    expect(snapshot.results).toHaveLength(24);
    const cached = snapshot.results.filter((r) => r.cached).map((r) => r.caseKey);
    expect(cached.sort()).toEqual(
      suite.caseKeys.filter((k) => k.startsWith('north/')).flatMap((k) => [k, k]),
    );
    // The first run paid for them, and is named.
    const filled = readdirSync(results).find((f) => !f.includes(runId))!;
    const fillId = (JSON.parse(readFileSync(join(results, filled), 'utf8')) as Snapshot).runId;
    for (const r of snapshot.results.filter((r) => r.cached)) {
      expect(r.cached).toEqual({ replies: 1, calls: 0, paidUsd: 0, runs: [fillId] });
      expect(r.usage.inputTokens).not.toBeNull();
    }
  }, 240_000);
});
