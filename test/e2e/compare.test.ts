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

const leaderboardRows = (stdout: string) => stdout.split('\n').filter((l) => /^│ (animals|colors) /.test(l));

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

  it('starts the server, prints the leaderboard of 6 experiments and saves the snapshot', async () => {
    const { code, stdout, stderr } = await runCli(['compare'], { cwd: dir, env });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('Starting the Temporal dev server');
    expect(stderr).toContain('typesafe/jev-latest refused: needs typesafe; this suite produces prompt');
    const rows = leaderboardRows(stdout);
    expect(rows).toHaveLength(6);
    // A metric that applies to some cases says over how many it stands; every contender is tied with the best.
    for (const row of rows) {
      expect(row).toMatch(
        /100\.0% │\s+100\.0% │\s+100\.0%(?: \(\d+\/\d+\))? │ (?:tied 0\.0 \[0\.0, 0\.0\] p = 1\.00)?\s+│\s+0 │/,
      );
    }
    const [snapshot] = snapshots(dir);
    expect(snapshot).toMatchObject({ version: 1, status: 'completed', suite: { name: 'toy' } });
    expect(snapshot!.experiments).toHaveLength(6);
    expect(snapshot!.results).toHaveLength(24);
    expect(snapshot!.results.every((r) => r.status === 'scored' && r.score === 1)).toBe(true);
    expect(snapshot!.cases).toHaveLength(8);
    expect(existsSync(join(dir, '.llm-evals/temporal.db'))).toBe(true);
  }, 120_000);

  // Each experiment's pool listens to the worker's drain signal: listeners left behind by finished pools used to add up
  // to Node's leak warning past ten experiments in one process.
  it('runs 18 experiments in one process without a listener-leak warning', async () => {
    const { code, stderr } = await runCli(['compare', '-t', '0,0.5,1', '--no-open'], { cwd: dir, env });
    expect(code, stderr).toBe(0);
    expect(stderr).not.toContain('MaxListenersExceededWarning');
    expect(snapshots(dir).find((s) => s.experiments.length === 18)?.results).toHaveLength(72);
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
