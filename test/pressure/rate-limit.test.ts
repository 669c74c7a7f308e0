import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { FaultServer, gaps, warmCache } from '../helpers/fault-server.ts';
import { runCli, startCli, type CliProcess } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// S7 and D2: a rate limit holds for the whole run across worker processes, because one gate workflow hands out
// every slot. `start --no-worker`, then two `worker --until RUN` processes, each with a key of its own, so the server
// can tell whose calls it got. burst 5, per_minute 120: 5 calls at once, then one every 0.5 s.

const WINDOW_S = 30;
const EXPECTED = 5 + (120 * WINDOW_S) / 60;

const dirs = new TempDirs();
const server = new FaultServer();
const workers: CliProcess[] = [];

afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  await server.stop();
  dirs.removeAll();
});

describe('a global rate limit served by two worker processes (S7, D2)', () => {
  it(`admits 5 + 60 (±3) calls in the first ${WINDOW_S} s at the server, not twice that`, async () => {
    const url = await server.start();
    const lineup =
      `limited:\n  base_url: ${url}\n  api_key_env: FAULT_KEY\n` +
      `  rate_limit: { burst: 5, per_minute: 120 }\n  models: [m]\n`;
    // Two datasets of 45 cases: two experiments, one for each worker.
    const project = providerSuite(dirs, lineup, numberedCases(90, ['north', 'south']));
    const env = cliEnv(await warmCache(), { FAULT_KEY: 'starter' });
    const start = await runCli(['start', '--no-worker', '-j', '0', '-p', '4'], { cwd: project, env });
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();
    for (const key of ['worker-a', 'worker-b']) {
      // One pool each: a worker runs an experiment's calls in one activity, so the two experiments go one to each.
      const worker = startCli(['worker', '--until', runId, '--max-activities', '1'], {
        cwd: project,
        env: { ...env, FAULT_KEY: key },
        timeoutMs: 150_000,
      });
      workers.push(worker);
    }
    await Promise.all(workers.map((w) => w.waitFor(/worker serving/)));

    const served = Date.now();
    while (server.hits.length === 0 || Date.now() - server.hits[0]!.t < WINDOW_S * 1000 + 1000) {
      if (server.hits.length === 0 && Date.now() - served > 60_000) throw new Error('no call in 60 s');
      await sleep(200);
    }
    const t0 = server.hits[0]!.t;
    const inWindow = server.hits.filter((h) => h.t - t0 < WINDOW_S * 1000);
    const cancel = await runCli(['cancel', runId], { cwd: project, env });
    expect(cancel.code, cancel.stderr).toBe(0);
    for (const worker of workers) expect((await worker.done).code).toBe(0);

    expect(inWindow.length, `${inWindow.length} calls in ${WINDOW_S} s`).toBeGreaterThanOrEqual(EXPECTED - 3);
    expect(inWindow.length, `${inWindow.length} calls in ${WINDOW_S} s`).toBeLessThanOrEqual(EXPECTED + 3);
    // After the burst, evenly spaced: half a second apart.
    const spacing = gaps(inWindow.slice(4)).sort((a, b) => a - b);
    expect(spacing[Math.floor(spacing.length / 2)]).toBeCloseTo(0.5, 1);
    // Both workers called.
    expect(new Set(inWindow.map((h) => h.auth))).toEqual(new Set(['Bearer worker-a', 'Bearer worker-b']));
  }, 150_000);
});
