import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { runCli, runCliLong } from '../helpers/cli.ts';
import { recordFileIn, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { editFile, TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

const dirs = new TempDirs();
afterAll(() => dirs.removeAll());

const RESULTS = 'evals/results';

const snapshots = (dir: string) =>
  existsSync(join(dir, RESULTS))
    ? readdirSync(join(dir, RESULTS))
        .filter((f) => f.endsWith('.json'))
        .sort()
    : [];

const read = (dir: string, file: string) =>
  JSON.parse(readFileSync(join(dir, RESULTS, file), 'utf8')) as Snapshot;

/** Each result's score by `<contender id> <case key>`. */
const scores = (s: Snapshot) => {
  const contenderOf = new Map(s.experiments.map((e) => [e.id, e.contender.split(' ')[0]!.split(':')[1]]));
  return Object.fromEntries(
    s.results.map((r) => [`${contenderOf.get(r.experimentId)} ${r.caseKey}`, r.score]),
  );
};

describe('rescore RUN|FILE (no model call)', () => {
  it('grades the saved replies with the changed scorer into a new snapshot linked to the run', async () => {
    const dir = dirs.inRepo('rescore-');
    const suite = writeRecordingSuite(dir, 10);
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `rescore-${randomUUID()}`,
      RECORDING_API_KEY: 'test-key',
      CALL_DELAY_MS: '5',
      RECORD_FILE: recordFileIn(dir, 'compare'),
    };
    const compare = await runCliLong(['compare', '--no-open'], { cwd: dir, env });
    expect(compare.code, compare.stderr).toBe(0);
    expect(suite.read(env.RECORD_FILE)).toHaveLength(20);
    const [first] = snapshots(dir);
    const original = read(dir, first!);
    // rec/beta answers a "tricky" case with its id alone: the exact scorer gives 0.
    expect(scores(original)['rec/beta south/clear/002']).toBe(0);
    expect(scores(original)['rec/alpha south/clear/002']).toBe(1);

    // The scorer changes: a reply naming the right id is now right.
    editFile(join(dir, 'evals/eval_helper.ts'), (text) =>
      text.replace(
        'JSON.stringify(reply.output) === JSON.stringify(kase.expected)',
        '(reply.output as { id?: string } | undefined)?.id === (kase.expected as { id: string }).id',
      ),
    );
    const noCalls = { ...env, RECORD_FILE: recordFileIn(dir, 'rescore') };
    const byFile = await runCli(['rescore', join(RESULTS, first!), '--display', 'tui'], {
      cwd: dir,
      env: noCalls,
    });
    expect(byFile.code, byFile.stderr).toBe(0);
    // Replies the adapter marked failed are graded too (by the scorer's `failed`), and stay 0.
    const graded = original.results.filter((r) => r.status !== 'error').length;
    expect(graded).toBe(20);
    expect(byFile.stderr).toContain(`rescored ${graded} saved replies of run ${original.runId}`);
    expect(byFile.stdout).toContain(`Rescore of run ${original.runId} (${RESULTS}/${first})`);
    expect(byFile.stdout).toContain('no model was called');

    const byId = await runCli(['rescore', original.runId, '--display', 'tui'], { cwd: dir, env: noCalls });
    expect(byId.code, byId.stderr).toBe(0);
    expect(byId.stdout).toContain(`Rescore of run ${original.runId}:`);

    // Not one call reached the provider.
    expect(existsSync(noCalls.RECORD_FILE)).toBe(false);
    const files = snapshots(dir);
    expect(files).toHaveLength(3);
    expect(read(dir, first!)).toEqual(original);
    for (const file of files.filter((f) => f !== first)) {
      const rescored = read(dir, file);
      expect(rescored.rescoreOf?.runId).toBe(original.runId);
      expect(rescored.runId).not.toBe(original.runId);
      const now = scores(rescored);
      expect(now['rec/beta south/clear/002']).toBe(1);
      // Garbled replies stay reply errors at 0; usage is the original's.
      for (const [call, score] of Object.entries(scores(original))) {
        if (score === 1) expect(now[call]).toBe(1);
      }
      expect(rescored.results.map((r) => r.usage)).toEqual(original.results.map((r) => r.usage));
      expect(rescored.results.map((r) => r.status)).toEqual(original.results.map((r) => r.status));
    }
  }, 300_000);

  it('exits 2 on a file that is no snapshot, naming it', async () => {
    const dir = dirs.inRepo('rescore-bad-');
    writeRecordingSuite(dir, 2);
    const result = await runCli(['rescore', 'evals/.llm-evals.config.yml'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('.llm-evals.config.yml: not a readable snapshot');
  });
});
