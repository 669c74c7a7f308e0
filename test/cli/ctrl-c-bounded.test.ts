import { describe, it } from 'vitest';
import { runCli, runCliLong, startCli } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { FaultServer, warmCache } from '../helpers/fault-server.ts';
import { statusOf } from '../helpers/run-reads.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// Ctrl-C is obeyed within 15 s in every state. A provider that hangs (frozen, not refused) held the first Ctrl-C's
// drain for as long as it hung (58 s and more in the trial), with no word of a way out. The calls still in
// flight after a bounded wait are left to `resume`: at most repeated, never lost.

const { dirs, servers, spawned } = cliFixtures();

describe.concurrent('a provider that hangs', () => {
  it('stops within 15 s, says how to stop at once, and resume finishes every case', async ({ expect }) => {
    let frozen = true;
    // Frozen: the first calls are answered in ten minutes, long after the test. Then it answers at once.
    const server = new FaultServer({ m: () => (frozen ? { delayMs: 600_000 } : undefined) });
    servers.push(server);
    const url = await server.start();
    const project = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [m]\n`, numberedCases(8));
    const env = cliEnv(await warmCache(), {});

    const compare = startCli(['compare', '-p', '2', '--display', 'none'], {
      cwd: project,
      env,
      timeoutMs: 120_000,
    });
    spawned.push(compare);
    const runId = (await compare.waitFor(/run (\d{8}-\d{6}-\w+) started/, 60_000))[1]!;
    for (let i = 0; i < 100 && server.hits.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(server.hits.length).toBe(2);

    const interrupted = Date.now();
    compare.child.kill('SIGINT');
    const stopped = await compare.done;
    const took = (Date.now() - interrupted) / 1000;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(took, `Ctrl-C took ${took.toFixed(1)} s`).toBeLessThan(15);
    expect(stopped.stderr).toContain('Ctrl-C again stops at once');
    expect(stopped.stderr).toContain('stopped waiting for the calls in flight after 10 s');
    expect(stopped.stderr).toContain(`llm-evals resume ${runId}`);

    frozen = false;
    const resumed = await runCliLong(['resume', runId, '--display', 'none'], {
      cwd: project,
      env,
      timeoutMs: 120_000,
    });
    expect(resumed.code, resumed.stderr).toBe(0);
    const done = await statusOf(project, env, runId);
    expect(done).toMatchObject({ state: 'completed', done: 8, total: 8 });
    expect(done.experiments).toMatchObject([{ errors: 0 }]);
  }, 180_000);

  it('is named by the live view and by status once no call has answered for 30 s', async ({ expect }) => {
    const server = new FaultServer({ m: () => ({ delayMs: 600_000 }) });
    servers.push(server);
    const url = await server.start();
    const project = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [m]\n`, numberedCases(6));
    const env = cliEnv(await warmCache(), {});

    const compare = startCli(['compare', '-p', '2', '--display', 'none'], {
      cwd: project,
      env,
      timeoutMs: 150_000,
    });
    spawned.push(compare);
    const runId = (await compare.waitFor(/run (\d{8}-\d{6}-\w+) started/, 60_000))[1]!;
    const said = await compare.waitFor(
      /not answering: lan\/m has answered no call since (\d\d:\d\d:\d\d)/,
      90_000,
    );
    expect(server.hits).toHaveLength(2);

    const status = await runCli(['status', runId], { cwd: project, env });
    expect(status.stdout).toContain(`not answering: lan/m has answered no call since ${said[1]}`);
    const json = await runCli(['status', runId, '--json'], { cwd: project, env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      state: 'running',
      notAnswering: [{ contender: 'lan/m' }],
    });
    compare.child.kill('SIGINT');
    expect((await compare.done).code).toBe(130);
  }, 180_000);
});
