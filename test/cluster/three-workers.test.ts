import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type CliProcess } from '../helpers/cli.ts';
import { FaultServer, warmCache, type Hit } from '../helpers/fault-server.ts';
import { DURABLE_WITHIN_MS } from '../helpers/recording-suite.ts';
import { reportOf } from '../helpers/run-reads.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { completion, userText } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';
import { tokenBucketExcess } from './token-bucket.ts';

// D2 + D3 as three machines would serve a run: `start --no-worker` in one checkout, then three `worker` processes,
// each in a checkout of its own (its own copy of the suite, state folder, caches and reply cache; none sees the
// starter's plan), each with a key of its own so the provider can tell whose calls it got. One is SIGKILLed mid-run.
// At the provider (a server on 127.0.0.1 that logs every call): every case called, none finished before the kill
// called again, and the one rate limit held across the three processes.

const DATASETS = ['north', 'south', 'east'];
const CASES = 3 * 24;
const CALL_MS = 200;
const PARALLELISM = 4;
const BURST = 5;
// Four calls a second: a slot's call reaches the provider some tens of ms after its start time on a busy machine, far
// less than the 250 ms between two slots, so at most one call of jitter shows at the provider.
const PER_MINUTE = 240;

const dirs = new TempDirs();
const server = new FaultServer({
  m: (_n, request) => ({ ...completion(userText(request)), delayMs: CALL_MS }),
});
const workers: CliProcess[] = [];

afterAll(async () => {
  for (const w of workers) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  await server.stop();
  dirs.removeAll();
});

/** The case a hit asked for. */
const caseOf = (hit: Hit) => (JSON.parse(hit.user) as { name: string }).name;

describe('a run served by three worker processes with separate state, one SIGKILLed (D2, D3)', () => {
  it('loses no case, pays no finished case twice, and keeps the rate limit across the three', async () => {
    const url = await server.start();
    const lineup =
      `limited:\n  base_url: ${url}\n  api_key_env: FAULT_KEY\n` +
      `  rate_limit: { burst: ${BURST}, per_minute: ${PER_MINUTE} }\n  models: [m]\n`;
    const cases = numberedCases(CASES, DATASETS);
    const starter = providerSuite(dirs, lineup, cases);
    const env = cliEnv(await warmCache(), { FAULT_KEY: 'starter' });
    const start = await runCli(['start', '--no-worker', '-j', '0', '-p', String(PARALLELISM)], {
      cwd: starter,
      env,
    });
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();

    for (const name of ['worker-a', 'worker-b', 'worker-c']) {
      // A machine of its own: a checkout of the suite, a state folder, caches (bundle, compiled suite, replies).
      const checkout = providerSuite(dirs, lineup, cases);
      const home = dirs.os(`cluster-${name}-`);
      const own = cliEnv(join(home, 'cache'), {
        FAULT_KEY: name,
        LLM_EVALS_STATE_DIR: join(home, 'state'),
        LLM_EVALS_CACHE_DIR: join(home, 'replies'),
        LLM_EVALS_TASK_QUEUE: env.LLM_EVALS_TASK_QUEUE!,
      });
      // One pool at a time: each worker takes one experiment's pool, so all three serve the run.
      const args = ['worker', '--until', runId, '--max-activities', '1'];
      workers.push(startCli(args, { cwd: checkout, env: own, timeoutMs: 200_000 }));
    }
    const [, victim] = workers as [CliProcess, CliProcess, CliProcess];
    const byVictim = () => server.hits.filter((h) => h.auth === 'Bearer worker-b');
    while (byVictim().length < 6) {
      if (victim.child.exitCode !== null) throw new Error(`worker-b exited:\n${(await victim.done).stderr}`);
      await sleep(20);
    }
    const killedAt = Date.now();
    victim.child.kill('SIGKILL');
    expect((await victim.done).signal).toBe('SIGKILL');
    for (const w of workers.filter((w) => w !== victim)) {
      const end = await w.done;
      expect(end.code, end.stderr).toBe(0);
    }

    const { report } = await reportOf(starter, env, runId);
    expect(report.status).toBe('completed');
    expect(report.results).toHaveLength(CASES);
    expect(report.results.every((r) => r.status === 'scored' && r.score === 1)).toBe(true);

    const hits = server.hits.filter((h) => h.status === 200);
    const times = new Map<string, number[]>();
    for (const hit of hits) times.set(caseOf(hit), [...(times.get(caseOf(hit)) ?? []), hit.t]);
    // Nothing lost: every case reached the provider.
    expect(times.size).toBe(CASES);
    // All three served it.
    expect(new Set(hits.map((h) => h.auth))).toEqual(
      new Set(['Bearer worker-a', 'Bearer worker-b', 'Bearer worker-c']),
    );
    // Paid twice only if it was in flight at the kill, or finished too shortly before it to be durable yet.
    const repeated = [...times].filter(([, list]) => list.length > 1);
    const why = JSON.stringify({ killedAt, repeated }, null, 1);
    for (const [, list] of repeated) {
      expect(list, why).toHaveLength(2);
      expect(list[0], why).toBeGreaterThanOrEqual(killedAt - CALL_MS - DURABLE_WITHIN_MS);
      expect(list[0], why).toBeLessThanOrEqual(killedAt);
    }
    expect(repeated.length, why).toBeLessThanOrEqual(PARALLELISM * 2);
    // The rate limit, measured at the provider over every call of the three processes (the repeated ones too).
    const excess = tokenBucketExcess(
      server.hits.map((h) => h.t),
      BURST,
      PER_MINUTE / 60_000,
    );
    expect(excess, `${server.hits.length} calls`).toBeLessThanOrEqual(1);
  }, 240_000);
});
