import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it, type ExpectStatic } from 'vitest';
import { runCli, runCliLong, startCli, type CliProcess } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { statusOf } from '../helpers/run-reads.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// A worker without a contender's key says so when it starts, calls none of its cases and records none as an error:
// they wait, `status` says why, and a worker that has the key finishes the run as if nothing had happened.

const { dirs, servers, spawned } = cliFixtures();

/** Asks `status` until it says why the run waits (30 s at most), and returns what it printed. */
async function statusOnceWaiting(runId: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  let said = '';
  for (let tries = 0; tries < 60 && !said.includes('waiting:'); tries++) {
    await sleep(500);
    said = (await runCli(['status', runId], { cwd, env })).stdout;
  }
  return said;
}

/**
 * Stops the worker that could not call (Ctrl-C, exit 0), has a worker that can serve the run finish it, and checks
 * the run ended as if nothing had happened: every case done, none an error, each called once. The finishing worker
 * must not print `unsaid`.
 */
async function finishedByOneThatCan(
  expect: ExpectStatic,
  run: { worker: CliProcess; server: FaultServer; project: string; env: NodeJS.ProcessEnv; runId: string },
  unsaid: string,
): Promise<void> {
  const { worker, server, project, env, runId } = run;
  worker.child.kill('SIGINT');
  expect((await worker.done).code).toBe(0);
  const finisher = await runCliLong(['worker', '--until', runId], { cwd: project, env, timeoutMs: 150_000 });
  expect(finisher.code, finisher.stderr).toBe(0);
  expect(finisher.stderr).not.toContain(unsaid);
  const done = await statusOf(project, env, runId);
  expect(done).toMatchObject({ state: 'completed', done: 4, total: 4 });
  expect(done.experiments).toMatchObject([{ done: 4, errors: 0, state: 'completed' }]);
  expect(server.hits.map((h) => h.status)).toEqual([200, 200, 200, 200]);
}

describe('a worker without the key of a contender', () => {
  it('says so, leaves its cases waiting, and a worker with the key finishes them', async ({ expect }) => {
    const server = new FaultServer({});
    servers.push(server);
    const url = await server.start();
    const lineup = `keyed:\n  base_url: ${url}\n  api_key_env: KEYED_API_KEY\n  models: [m]\n`;
    const project = providerSuite(dirs, lineup, numberedCases(4));
    const env = cliEnv(await warmCache(), { KEYED_API_KEY: 'key-1' });
    const keyless = { ...env, KEYED_API_KEY: '' };

    const start = await runCli(['start', '--no-worker'], { cwd: project, env });
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();

    const worker = startCli(['worker'], { cwd: project, env: keyless });
    spawned.push(worker);
    await worker.waitFor(
      /warning: KEYED_API_KEY is not set in this worker's environment: it will not call keyed\/m; their cases wait for a worker that has KEYED_API_KEY/,
      30_000,
    );
    // Its pools have taken the cases and sent them back: the gate holds the worker's word, and `status` says it.
    const said = await statusOnceWaiting(runId, project, keyless);
    expect(said).toMatch(new RegExp(`run ${runId} \\(.+\\): running, 0/4 cases`));
    expect(said).toContain(
      'waiting: no worker serving it has KEYED_API_KEY for keyed/m (start `llm-evals worker` where KEYED_API_KEY is set)',
    );
    const waiting = await statusOf(project, keyless, runId);
    expect(waiting).toMatchObject({
      state: 'running',
      done: 0,
      waitingFor: [{ envVar: 'KEYED_API_KEY', contender: 'keyed/m' }],
    });
    expect(server.hits).toHaveLength(0);

    await finishedByOneThatCan(expect, { worker, server, project, env, runId }, 'KEYED_API_KEY');
  }, 240_000);

  it('a worker whose config lacks the endpoint says so, leaves its cases waiting, and one that has it finishes them', async ({
    expect,
  }) => {
    const server = new FaultServer({});
    servers.push(server);
    const url = await server.start();
    const cases = numberedCases(4);
    const project = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [m]\n`, cases);
    // The same suite and cases, in a project whose config knows another endpoint only.
    const elsewhere = providerSuite(dirs, `other:\n  base_url: ${url}\n  models: [m]\n`, cases);
    const env = cliEnv(await warmCache(), {});

    const start = await runCli(['start', '--no-worker'], { cwd: project, env });
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();

    const worker = startCli(['worker', '--until', runId], { cwd: elsewhere, env });
    spawned.push(worker);
    await worker.waitFor(
      /warning: this worker knows no provider lan: it will not call lan\/m; their cases wait for a worker that knows it/,
      30_000,
    );
    const said = await statusOnceWaiting(runId, elsewhere, env);
    expect(said).toMatch(new RegExp(`run ${runId} \\(.+\\): running, 0/4 cases`));
    expect(said).toContain(
      'waiting: no worker serving it knows provider lan for lan/m (start `llm-evals worker` in a project whose config or helper defines lan)',
    );
    const waiting = await statusOf(elsewhere, env, runId);
    expect(waiting).toMatchObject({
      state: 'running',
      done: 0,
      waitingFor: [{ provider: 'lan', contender: 'lan/m' }],
    });
    expect(server.hits).toHaveLength(0);

    await finishedByOneThatCan(expect, { worker, server, project, env, runId }, 'warning');
  }, 240_000);

  it('a worker with the key takes the cases over while the one without it stays up', async ({ expect }) => {
    const server = new FaultServer({});
    servers.push(server);
    const url = await server.start();
    const lineup = `keyed:\n  base_url: ${url}\n  api_key_env: KEYED_API_KEY\n  models: [m]\n`;
    const project = providerSuite(dirs, lineup, numberedCases(20));
    const env = cliEnv(await warmCache(), { KEYED_API_KEY: 'key-1' });
    const keyless = { ...env, KEYED_API_KEY: '' };

    const start = await runCli(['start', '--no-worker'], { cwd: project, env });
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();
    const without = startCli(['worker'], { cwd: project, env: keyless });
    spawned.push(without);
    expect(await statusOnceWaiting(runId, project, keyless)).toContain(
      'waiting: no worker serving it has KEYED_API_KEY',
    );

    // The keyless worker stays up: its pools hand the cases back, and the next attempt goes to whichever polls.
    const began = Date.now();
    const keyed = await runCliLong(['worker', '--until', runId], { cwd: project, env, timeoutMs: 150_000 });
    const took = (Date.now() - began) / 1000;
    expect(keyed.code, keyed.stderr).toBe(0);
    expect(without.child.exitCode).toBeNull();
    const done = await statusOf(project, env, runId);
    expect(done).toMatchObject({ state: 'completed', done: 20, total: 20 });
    expect(done.experiments).toMatchObject([{ done: 20, errors: 0, state: 'completed' }]);
    expect(server.hits).toHaveLength(20);
    expect(server.hits.every((h) => h.status === 200)).toBe(true);
    // Before, it waited for the keyless worker's pauses (up to 30 s each), and lost the coin toss to it for 95 s.
    expect(took, `the worker with the key took ${took.toFixed(1)} s`).toBeLessThan(30);
    without.child.kill('SIGINT');
    expect((await without.done).code).toBe(0);
  }, 240_000);
});
