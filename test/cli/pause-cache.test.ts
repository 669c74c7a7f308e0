import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { runCli, startCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { statusOf, waitForState } from '../helpers/run-reads.ts';
import { failure } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// Paused means no case advances until the user answers: not even one the reply cache could answer without a call.
// Before, a paused run's next pools took their cases from the cache another run had just filled (those ask the gate for
// no slot), and the run went from its pause to `completed` with nobody answering.

const { dirs, servers, spawned } = cliFixtures();

describe('a paused run', () => {
  it('advances no case from the reply cache while it waits for an answer', async ({ expect }) => {
    // The model fails its first 100 calls (400: not retried), then answers every case right.
    const server = new FaultServer({ m: (n) => (n < 100 ? failure(400, 'bad request') : undefined) });
    servers.push(server);
    const url = await server.start();
    const project = providerSuite(dirs, `flaky:\n  base_url: ${url}\n  models: [m]\n`, numberedCases(140));
    const replies = dirs.os('llm-evals-pause-replies-');
    const env = cliEnv(await warmCache(), { LLM_EVALS_CACHE_DIR: join(replies, 'cache') });
    const cli = (args: string[]) => runCli(args, { cwd: project, env });

    const start = await cli(['start', '--no-worker', '-p', '4']);
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();
    const worker = startCli(['worker', '--until', runId], { cwd: project, env, timeoutMs: 200_000 });
    spawned.push(worker);
    // The gate pauses at the streak's last failure; the pools still in flight report theirs to the run a little later
    // (16 cases later on a loaded machine), so the count to hold is the one that matches every call made.
    const paused = await waitForState(
      project,
      env,
      runId,
      'paused',
      120_000,
      (s) => s.done === server.hits.length,
    );
    expect(paused.done).toBeGreaterThanOrEqual(100);
    expect(paused.done).toBeLessThan(140);

    // Another run of the same cases fills the reply cache with every reply while the first is paused.
    const other = await cli(['compare', '--display', 'none', '-y', '--allow-failures']);
    expect(other.code, other.stderr).toBe(0);
    const calls = server.hits.length;
    // The paused run's experiment starts a new pool after each pause delay (2, 4, 8 s …): give it several.
    await sleep(16_000);
    const still = await statusOf(project, env, runId);
    expect(still.state).toBe('paused');
    expect(still.done).toBe(paused.done);
    expect(server.hits.length).toBe(calls);

    // Answered, it goes on, and finds its replies in the cache: no call paid again.
    const goOn = await cli(['continue', runId]);
    expect(goOn.code, goOn.stderr).toBe(0);
    expect((await worker.done).code).toBe(0);
    const done = await statusOf(project, env, runId);
    expect(done).toMatchObject({ state: 'completed', total: 140, done: 140 });
    expect(server.hits.length).toBe(calls);
  }, 240_000);
});
