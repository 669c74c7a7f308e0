import { afterAll, describe, it } from 'vitest';
import { always, FaultServer, resultsByModel, warmCache } from '../helpers/fault-server.ts';
import { runCliLong } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { freeServerPort } from '../helpers/temporal.ts';
import { failure } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';

// S8 and the honest-numbers findings: a 5xx of one model closes that model, not its neighbours on the endpoint
// (only a 429, a Retry-After or a refused connection speaks for the vendor); an endpoint that refuses connections is
// retried like a 503 (a provider restarting, issue 44), then an error naming the URL.

const dirs = new TempDirs();
const servers: FaultServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  dirs.removeAll();
});

describe.concurrent('a dead model and a closed port', () => {
  it('a model answering 503 leaves its neighbour on the endpoint calling at full pace', async ({
    expect,
  }) => {
    const server = new FaultServer({ dead: always(failure(503, 'down for good')) });
    servers.push(server);
    const url = await server.start();
    const lineup = `shared:\n  base_url: ${url}\n  models: [dead, alive]\n`;
    const project = providerSuite(dirs, lineup, numberedCases(6));
    const run = await runCliLong(['compare', '-j', '0', '-p', '1', '--allow-failures', '--display', 'none'], {
      cwd: project,
      env: cliEnv(await warmCache(), {}),
    });
    expect(run.code, run.stderr).toBe(0);
    const results = resultsByModel(savedSnapshot(project).snapshot);
    expect(results.get('alive')?.every((r) => r.status === 'scored')).toBe(true);
    expect(results.get('dead')?.every((r) => r.status === 'error' && r.attempts === 5)).toBe(true);
    // Were the endpoint closed by the dead model's 503s, the live model could start a call only when the dead one's
    // back-off ended (1, 2, 4, 8 s), at the moment its retry started. Its span says little on a loaded machine, where
    // six calls can take as long as that back-off; a call started well inside one of the dead model's waits says it.
    const alive = server.of('alive').map((h) => h.t);
    const dead = server.of('dead').map((h) => h.t);
    expect(alive).toHaveLength(6);
    const inBackOff = alive.slice(1).filter((t) => {
      const last = dead.filter((d) => d <= t).at(-1);
      const next = dead.find((d) => d > t);
      return last !== undefined && t - last > 150 && (next === undefined || next - t > 150);
    });
    const times = JSON.stringify({
      alive: alive.map((t) => t - alive[0]!),
      dead: dead.map((t) => t - alive[0]!),
    });
    expect(inBackOff.length, `the live model called only when the dead one did: ${times}`).toBeGreaterThan(0);
  }, 240_000);

  it('an endpoint that refuses connections is tried five times a case, then an error naming the URL', async ({
    expect,
  }) => {
    const closed = `http://127.0.0.1:${await freeServerPort()}/v1`;
    const lineup = `gone:\n  base_url: ${closed}\n  models: [m]\n`;
    const project = providerSuite(dirs, lineup, numberedCases(4));
    // --no-verify: verify would refuse the run before any call (tested in test/cli/checks-before-run.test.ts).
    const run = await runCliLong(['compare', '--no-verify', '-p', '4', '--display', 'none'], {
      cwd: project,
      env: cliEnv(await warmCache(), {}),
    });
    const { snapshot } = savedSnapshot(project);
    expect(snapshot.results).toHaveLength(4);
    for (const r of snapshot.results) {
      expect(r.status).toBe('error');
      expect(r.attempts).toBe(5);
      expect(r.error).toContain(`cannot connect to ${closed} (connection refused)`);
    }
    expect(run.code, run.stderr).toBe(1); // no contender scored a case
  }, 120_000);
});
