import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { runCli } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { freeServerPort, temporalAddress } from '../helpers/temporal.ts';

const dirs = new TempDirs();
const toyCopy = () => dirs.toySuite();

function snapshots(dir: string): Snapshot[] {
  const results = join(dir, 'evals/results');
  if (!existsSync(results)) return [];
  return readdirSync(results).map((f) => JSON.parse(readFileSync(join(results, f), 'utf8')) as Snapshot);
}

const leaderboardRows = (stdout: string) =>
  stdout.split('\n').filter((l) => /^│ (animals|capitals|colors|weather) /.test(l));
/** A table row's cells, trimmed. */
const cells = (row: string) =>
  row
    .split('│')
    .slice(1, -1)
    .map((c) => c.trim());

describe('compare end to end on the embedded Temporal server', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dir = toyCopy();
    env = {
      TEMPORAL_ADDRESS: '',
      LLM_EVALS_STATE_DIR: join(dir, '.llm-evals'),
      LLM_EVALS_TEMPORAL_PORT: String(await freeServerPort()),
    };
  });

  afterAll(async () => {
    await runCli(['server', 'stop', '--force'], { cwd: dir, env });
    dirs.removeAll();
  });

  it('starts the server, prints the leaderboard of 12 experiments and saves the snapshot', async () => {
    const { code, stdout, stderr } = await runCli(['compare'], { cwd: dir, env });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('Starting the Temporal dev server');
    expect(stderr).toContain('typesafe/jev-latest refused: needs typesafe; this suite produces prompt');
    const rows = leaderboardRows(stdout);
    expect(rows).toHaveLength(12);
    // Each dataset is graded by its own scorer (fields, the judge, the tool calls) into `score`; a metric that applies
    // to some cases says over how many it stands, one that applies to none is `-`; every contender ties the best.
    const header = cells(stdout.split('\n').find((l) => l.startsWith('│ dataset '))!);
    const own: Record<string, Record<string, string>> = {
      animals: {
        field_accuracy: '100.0%',
        exact_match: '100.0%',
        restraint: '100.0% (2/4)',
        judge: '- (0/4)',
      },
      colors: {
        field_accuracy: '100.0%',
        exact_match: '100.0%',
        restraint: '100.0% (2/4)',
        tool_f1: '- (0/4)',
      },
      capitals: { field_accuracy: '- (0/3)', judge: '100.0%', tool_f1: '- (0/3)' },
      weather: { field_accuracy: '- (0/3)', judge: '- (0/3)', tool_f1: '100.0%' },
    };
    for (const row of rows) {
      const cell = Object.fromEntries(header.map((name, i) => [name, cells(row)[i]]));
      expect(cell).toMatchObject({ score: '100.0%', ...own[cell.dataset!], errors: '0' });
      expect(cell.vs_best).toMatch(/^(?:tied 0\.0 \[0\.0, 0\.0\] p = 1\.00)?$/);
    }
    const [snapshot] = snapshots(dir);
    expect(snapshot).toMatchObject({ version: 1, status: 'completed', suite: { name: 'toy' } });
    expect(snapshot!.experiments).toHaveLength(12);
    expect(snapshot!.results).toHaveLength(42);
    expect(snapshot!.results.every((r) => r.status === 'scored' && r.score === 1)).toBe(true);
    expect(snapshot!.cases).toHaveLength(14);
    expect(existsSync(join(dir, '.llm-evals/temporal.db'))).toBe(true);
  }, 120_000);

  // Each experiment's pool listens to the worker's drain signal: listeners left behind by finished pools used to add up
  // to Node's leak warning past ten experiments in one process.
  it('runs 36 experiments in one process without a listener-leak warning', async () => {
    const { code, stderr } = await runCli(['compare', '-t', '0,0.5,1', '--no-open'], { cwd: dir, env });
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain('MaxListenersExceededWarning');
    expect(snapshots(dir).find((s) => s.experiments.length === 36)?.results).toHaveLength(126);
  }, 120_000);

  it('reuses the running server on the next compare', async () => {
    const { code, stderr } = await runCli(['compare'], { cwd: dir, env });
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain('Starting the Temporal dev server');
    expect(snapshots(dir)).toHaveLength(3);
  }, 120_000);

  it('run -m adds the per-case breakdown for the named model only', async () => {
    const { code, stdout, stderr } = await runCli(['run', '-m', 'fake/parrot', '-d', 'animals'], {
      cwd: dir,
      env,
    });
    expect(code, stderr).toBe(0);
    const breakdown = stdout.split('\n').filter((l) => /^│ animals\/(clear|tricky)\/00\d /.test(l));
    expect(breakdown).toHaveLength(4);
    expect(leaderboardRows(stdout)).toHaveLength(1);
  }, 120_000);
});

describe('compare against a cluster named by TEMPORAL_ADDRESS', () => {
  afterAll(() => dirs.removeAll());

  it('uses it and starts no server of its own', async () => {
    const dir = toyCopy();
    const env = { TEMPORAL_ADDRESS: temporalAddress(), LLM_EVALS_TASK_QUEUE: `e2e-${Date.now()}` };
    const { code, stdout, stderr } = await runCli(['compare', '-d', 'colors', '-p', '4', '-j', '0'], {
      cwd: dir,
      env,
    });
    expect(code, stderr).toBe(0);
    expect(leaderboardRows(stdout)).toHaveLength(3);
    expect(existsSync(join(dir, '.llm-evals'))).toBe(false);
  }, 120_000);

  it('fails within 10 s with exit 2 when it does not answer', async () => {
    const dir = toyCopy();
    const port = await freeServerPort();
    const started = Date.now();
    const { code, stderr } = await runCli(['compare'], {
      cwd: dir,
      env: { TEMPORAL_ADDRESS: `127.0.0.1:${port}` },
    });
    expect(code).toBe(2);
    expect(stderr).toContain(`127.0.0.1:${port}`);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
