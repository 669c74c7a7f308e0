import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, it, type ExpectStatic } from 'vitest';
import { experimentWorkflowId } from '../../src/core/run-input.ts';
import { BatchServer } from '../helpers/batch-server.ts';
import { runCli, runCliLong, startCli, type CliProcess } from '../helpers/cli.ts';
import { warmCache } from '../helpers/fault-server.ts';
import { statusOf } from '../helpers/run-reads.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { testClient } from '../helpers/temporal.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// A `--batch` run served by a worker that cannot reach the endpoint's Batch API (it lacks the key, or knows no such
// endpoint) sends nothing and fails no round: the batch steps wait, `status` says why, and a worker that can reach
// the provider finishes the run with exactly one batch, as worker-keys.test.ts expects of a run's calls.

const dirs = new TempDirs();
const KEY = 'sk-batch-keys-91c3';
const servers: BatchServer[] = [];
const spawned: CliProcess[] = [];
const client = testClient();

afterAll(async () => {
  for (const cli of spawned) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.stop()));
  dirs.removeAll();
});

/** An endpoint section `name` at `url` with a Batch API and the key BATCH_KEY. */
const section = (name: string, url: string) =>
  `${name}:\n  base_url: ${url}\n  api_key_env: BATCH_KEY\n  batch: true\n  models: [gpt-x]\n`;

/**
 * Starts `start --batch --no-worker` in `project`, then a worker with `workerEnv` in `workerDir` that cannot reach the
 * provider; waits for `status` to say why the run waits and, with `givenUp`, for Temporal to have given up on the
 * round's submit once (its ten attempts all met that worker, about 10 s), so that the experiment scheduled it again.
 * Returns the run and what status said.
 */
async function waitingOnAWorkerThatCannot(
  expect: ExpectStatic,
  run: {
    project: string;
    env: NodeJS.ProcessEnv;
    workerDir: string;
    workerEnv: NodeJS.ProcessEnv;
    warns: RegExp;
  },
  givenUp = false,
) {
  const start = await runCli(['start', '--batch', '--no-worker'], { cwd: run.project, env: run.env });
  expect(start.code, start.stderr).toBe(0);
  const runId = start.stdout.trim();
  const worker = startCli(['worker', '--until', runId], { cwd: run.workerDir, env: run.workerEnv });
  spawned.push(worker);
  await worker.waitFor(run.warns, 30_000);
  let said = '';
  const asked = Date.now() + 30_000;
  while (!said.includes('waiting:') && Date.now() < asked) {
    await sleep(500);
    said = (await runCli(['status', runId], { cwd: run.project, env: run.env })).stdout;
  }
  if (givenUp) {
    const [experiment] = (await statusOf(run.project, run.env, runId)).experiments;
    const handle = client().workflow.getHandle(experimentWorkflowId(runId, experiment!.id));
    const deadline = Date.now() + 60_000;
    let failed = 0;
    while (failed === 0 && Date.now() < deadline) {
      await sleep(250);
      const { events } = await handle.fetchHistory();
      failed = (events ?? []).filter((e) => e.activityTaskFailedEventAttributes).length;
    }
    expect(failed, 'a submit given up on a worker that cannot reach the provider').toBeGreaterThan(0);
  }
  return { runId, worker, said };
}

/** Stops the worker that could not serve (Ctrl-C), and has one that can finish the run: one batch, every case. */
async function finishedByOneThatCan(
  expect: ExpectStatic,
  run: { worker: CliProcess; server: BatchServer; project: string; env: NodeJS.ProcessEnv; runId: string },
): Promise<void> {
  const { worker, server, project, env, runId } = run;
  expect(server.batches).toHaveLength(0);
  worker.child.kill('SIGINT');
  expect((await worker.done).code).toBe(0);
  const finisher = await runCliLong(['worker', '--until', runId], { cwd: project, env, timeoutMs: 120_000 });
  expect(finisher.code, finisher.stderr).toBe(0);
  const done = await statusOf(project, env, runId);
  expect(done).toMatchObject({ state: 'completed', done: 4, total: 4 });
  expect(done.experiments).toMatchObject([{ done: 4, errors: 0, state: 'completed' }]);
  expect(server.batches.map((b) => [b.status, b.lines.length])).toEqual([['completed', 4]]);
  expect(server.chatCalls).toBe(0);
}

describe.concurrent('a --batch run whose worker cannot reach the Batch API', () => {
  it('lacking the key: sends nothing, status says why, and a worker with the key finishes it with one batch', async ({
    expect,
  }) => {
    const server = new BatchServer({ delayMs: 300 });
    servers.push(server);
    const project = providerSuite(dirs, section('openai', await server.start()), numberedCases(4));
    const env = cliEnv(await warmCache(), { BATCH_KEY: KEY, LLM_EVALS_BATCH_POLL: '0.2,1' });
    const { runId, worker, said } = await waitingOnAWorkerThatCannot(
      expect,
      {
        project,
        env,
        workerDir: project,
        workerEnv: { ...env, BATCH_KEY: '' },
        warns: /warning: BATCH_KEY is not set in this worker's environment: it will not call openai\/gpt-x/,
      },
      true,
    );
    expect(said).toContain(
      'waiting: no worker serving it has BATCH_KEY for openai/gpt-x (start `llm-evals worker` where BATCH_KEY is set)',
    );
    await finishedByOneThatCan(expect, { worker, server, project, env, runId });
  }, 180_000);

  it('knowing no such endpoint: sends nothing, status says why, and a worker that knows it finishes it', async ({
    expect,
  }) => {
    const server = new BatchServer({ delayMs: 300 });
    servers.push(server);
    const url = await server.start();
    const cases = numberedCases(4);
    const project = providerSuite(dirs, section('openai', url), cases);
    // The same suite and cases, in a project whose config knows another endpoint only.
    const elsewhere = providerSuite(dirs, section('other', url), cases);
    const env = cliEnv(await warmCache(), { BATCH_KEY: KEY, LLM_EVALS_BATCH_POLL: '0.2,1' });
    const { runId, worker, said } = await waitingOnAWorkerThatCannot(expect, {
      project,
      env,
      workerDir: elsewhere,
      workerEnv: env,
      warns: /warning: this worker knows no provider openai: it will not call openai\/gpt-x/,
    });
    expect(said).toContain('waiting: no worker serving it knows provider openai for openai/gpt-x');
    await finishedByOneThatCan(expect, { worker, server, project, env, runId });
  }, 180_000);
});
