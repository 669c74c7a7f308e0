import { existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, it } from 'vitest';
import { startCli, type CliProcess } from '../helpers/cli.ts';
import { warmCache } from '../helpers/fault-server.ts';
import { REPO, TempDirs, writeTree } from '../helpers/suite-dir.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// SIGTERM to the process the user started stops the whole worker: it drains, says so and exits, whether the user ran
// the command itself or through npx, whose npm process ends on SIGTERM without passing it on to the command.

const dirs = new TempDirs();
const spawned: CliProcess[] = [];
const workers: number[] = [];

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

afterAll(() => {
  for (const cli of spawned) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  for (const pid of workers) if (alive(pid)) process.kill(pid, 'SIGKILL');
  dirs.removeAll();
});

/** npm's npx script, as the shell finds it on PATH (run with the tests' node); undefined without one. */
const NPX = (process.env.PATH ?? '')
  .split(delimiter)
  .map((dir) => join(dir, 'npx'))
  .filter((file) => existsSync(file))
  .map((file) => realpathSync(file))
  .find((file) => file.endsWith('.js'));

/** A project with llm-evals installed in node_modules (this checkout, linked), as `npm install` leaves it. */
function installedProject(): string {
  const project = providerSuite(
    dirs,
    'lan:\n  base_url: http://127.0.0.1:9/v1\n  models: [m]\n',
    numberedCases(1),
  );
  writeTree(project, { 'package.json': '{ "name": "signals", "private": true }\n' });
  mkdirSync(join(project, 'node_modules/.bin'), { recursive: true });
  symlinkSync(REPO, join(project, 'node_modules/llm-evals'));
  symlinkSync('../llm-evals/bin/llm-evals.mjs', join(project, 'node_modules/.bin/llm-evals'));
  return project;
}

/** Waits until `pid` has exited; false when it is still running after `ms`. */
async function exits(pid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await sleep(200))
    if (!alive(pid)) return true;
  return false;
}

describe.concurrent('SIGTERM to a worker', () => {
  it('node bin/llm-evals.mjs worker drains and exits', async ({ expect }) => {
    const project = installedProject();
    const worker = startCli(['worker'], { cwd: project, env: cliEnv(await warmCache(), {}) });
    spawned.push(worker);
    await worker.waitFor(/worker serving .+ \(pid \d+\)/);
    worker.child.kill('SIGTERM');
    const done = await worker.done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toContain('stopping: the calls in flight finish and are recorded first');
    expect(done.stderr).toContain('worker stopped');
  }, 120_000);

  it.skipIf(!NPX)(
    'npx llm-evals worker: the worker under npm drains and exits too',
    async ({ expect }) => {
      const project = installedProject();
      const env = cliEnv(await warmCache(), {
        npm_config_update_notifier: 'false',
        npm_config_offline: 'true',
      });
      const npx = startCli(['llm-evals', 'worker'], { cwd: project, env, bin: NPX });
      spawned.push(npx);
      const pid = Number((await npx.waitFor(/worker serving .+ \(pid (\d+)\)/, 90_000))[1]);
      workers.push(pid);
      expect(pid).not.toBe(npx.child.pid);
      npx.child.kill('SIGTERM');
      expect(
        await exits(pid, 20_000),
        `the worker (pid ${pid}) still runs 20 s after npx was sent SIGTERM`,
      ).toBe(true);
      // The worker's output comes through npx's pipes, which close when the worker has gone.
      const { stderr } = await npx.done;
      expect(stderr).toContain('has ended');
      expect(stderr).toContain('worker stopped');
    },
    150_000,
  );
});
