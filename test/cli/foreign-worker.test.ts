import { basename } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'vitest';
import { runCli, runCliLong, startCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { statusOf } from '../helpers/run-reads.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// Two projects whose suites share a name meet on one task queue. A worker of one must not fail the other's cases for
// want of them: it hands them back, and the run goes on once a worker of its own project serves it.

const { dirs, servers, spawned } = cliFixtures();

describe("another project's worker on the run's task queue", () => {
  it('fails none of its cases, calls none, and leaves them to a worker of the run’s own project', async ({
    expect,
  }) => {
    const server = new FaultServer({});
    servers.push(server);
    const url = await server.start();
    const lineup = `lan:\n  base_url: ${url}\n  models: [m]\n`;
    // Same suite, same endpoint, different cases: A's are in dataset `north`, B's in `south`.
    const a = providerSuite(dirs, lineup, numberedCases(6, ['north']));
    const b = providerSuite(dirs, lineup, numberedCases(6, ['south']));
    // One queue for both, as two projects' suites named alike share `llm-evals:<name>`.
    const env = cliEnv(await warmCache(), {});

    const workerA = startCli(['worker'], { cwd: a, env, timeoutMs: 200_000 });
    spawned.push(workerA);
    await workerA.waitFor(/worker serving/, 60_000);
    const start = await runCli(['start', '--no-worker'], { cwd: b, env });
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();

    // A's worker takes B's pools again and again (it is the only one): every time it hands the cases back.
    await sleep(10_000);
    const waiting = await statusOf(b, env, runId);
    expect(waiting).toMatchObject({ state: 'running', done: 0, total: 6 });
    expect(waiting.experiments).toMatchObject([{ done: 0, errors: 0 }]);
    expect(server.hits).toHaveLength(0);

    // B's own worker finishes it while A's stays up.
    const workerB = await runCliLong(['worker', '--until', runId], { cwd: b, env, timeoutMs: 120_000 });
    expect(workerB.code, workerB.stderr).toBe(0);
    const done = await statusOf(b, env, runId);
    expect(done).toMatchObject({ state: 'completed', done: 6, total: 6 });
    expect(done.experiments).toMatchObject([{ done: 6, errors: 0, state: 'completed' }]);
    const called = server.hits.map((h) => (JSON.parse(h.user) as { name: string }).name).sort();
    expect(called).toEqual(Array.from({ length: 6 }, (_, i) => `south/bulk/00${i + 1}`));
    // B's schedule lists B's workers only, though A's polls its queue too.
    const created = await runCli(['schedule', 'create', 'weekly', '--every', '1w'], { cwd: b, env });
    expect(created.code, created.stderr).toBe(0);
    const workerB2 = startCli(['worker'], { cwd: b, env, timeoutMs: 200_000 });
    spawned.push(workerB2);
    await workerB2.waitFor(/worker serving/, 60_000);
    // Both workers poll the queue by now (A's all along): Temporal lists a poller within a second of its poll.
    await sleep(3000);
    const out = await runCli(['schedule', 'show', 'weekly', '--json'], { cwd: b, env });
    expect(out.code, out.stderr).toBe(0);
    const listed = (JSON.parse(out.stdout) as { workers: { identity: string }[] }).workers.map(
      (w) => w.identity,
    );
    // B's two workers (the one that finished its run polled lately too), and not A's.
    expect(listed).toHaveLength(2);
    for (const identity of listed) expect(identity).toMatch(new RegExp(` ${basename(b)}-[0-9a-f]{8}$`));
    workerB2.child.kill('SIGINT');
    expect((await workerB2.done).code).toBe(0);
    expect(workerA.child.exitCode).toBeNull();
    workerA.child.kill('SIGINT');
    expect((await workerA.done).code).toBe(0);
  }, 240_000);
});
