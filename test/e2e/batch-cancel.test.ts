import { afterAll, describe, it } from 'vitest';
import { BatchServer } from '../helpers/batch-server.ts';
import { runCli, startCli } from '../helpers/cli.ts';
import { killServer, ownServerEnv, startServer } from '../helpers/durable.ts';
import { warmCache } from '../helpers/fault-server.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// `cancel RUN` of a `--batch` run that no worker serves: Temporal ends the run, so no worker runs the experiments'
// cancel of their batches, and the command cancels them at the provider itself, with the key of its own environment.

const dirs = new TempDirs();
const KEY = 'sk-batch-cancel-7d2e';
const servers: BatchServer[] = [];
const projects: { dir: string; env: NodeJS.ProcessEnv }[] = [];

afterAll(async () => {
  for (const { dir, env } of projects) await runCli(['server', 'stop', '--force'], { cwd: dir, env });
  await Promise.all(servers.map((s) => s.stop()));
  dirs.removeAll();
});

/**
 * A `compare --batch` stopped by Ctrl-C once it has looked at its batch at the fake (the run waits on it, no worker
 * up), on a Temporal server of its own, which is then killed: the next command starts it again, and it has forgotten
 * the compare's worker, as a server does one gone long enough, so cancel finds no worker and ends the run at once.
 */
async function waitingRunNoWorkerServes() {
  const server = new BatchServer({ delayMs: 120_000 });
  servers.push(server);
  const url = await server.start();
  const section = `openai:\n  base_url: ${url}\n  api_key_env: BATCH_KEY\n  batch: true\n  models: [gpt-x]\n`;
  const project = providerSuite(dirs, section, numberedCases(4));
  const env = {
    ...cliEnv(await warmCache(), { BATCH_KEY: KEY, LLM_EVALS_BATCH_POLL: '0.5,30' }),
    ...(await ownServerEnv(project)),
  };
  projects.push({ dir: project, env });
  const compare = startCli(['compare', '--batch', '--display', 'none'], { cwd: project, env });
  const [, runId] = await compare.waitFor(/run (\S+) started/);
  const deadline = Date.now() + 60_000;
  // Stopped between two looks at the batch: a workflow task its worker took and did not finish would count as a
  // worker at work for Temporal's 10 s workflow task timeout.
  while (server.looks === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));
  compare.child.kill('SIGINT');
  const stopped = await compare.done;
  if (stopped.code !== 130) throw new Error(`the compare exited ${stopped.code}:\n${stopped.stderr}`);
  killServer(project);
  return { server, project, env, runId: runId! };
}

describe.concurrent('cancel RUN of a --batch run no worker serves', () => {
  it("cancels the provider's batch from the command, and says so", async ({ expect }) => {
    const { server, project, env, runId } = await waitingRunNoWorkerServes();
    expect(server.batches.map((b) => b.status)).toEqual(['in_progress']);

    const cancelled = await runCli(['cancel', runId], { cwd: project, env });
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toMatch(
      new RegExp(
        `cancelled run ${runId}: no worker closed it, so Temporal ended it; cancelled batch batch_\\w+ at openai\\n`,
      ),
    );
    expect(server.batches.map((b) => b.status)).toEqual(['cancelled']);
    expect(server.chatCalls).toBe(0);
    // The key went in the Authorization header only.
    expect(cancelled.stdout + cancelled.stderr).not.toContain(KEY);
  }, 120_000);

  it('names the batch it could not cancel without the key, and cancels it when run again with the key', async ({
    expect,
  }) => {
    const { server, project, env, runId } = await waitingRunNoWorkerServes();

    const keyless = await runCli(['cancel', runId], { cwd: project, env: { ...env, BATCH_KEY: '' } });
    expect(keyless.code).toBe(1);
    expect(keyless.stdout).toContain(`cancelled run ${runId}: no worker closed it, so Temporal ended it\n`);
    const [batchId] = server.batches.map((b) => b.id);
    expect(keyless.stderr).toContain(
      `✗ batch ${batchId} at openai still runs, and is paid for: BATCH_KEY is not set here, so cancel could not ` +
        `ask openai; run \`llm-evals cancel ${runId}\` where BATCH_KEY is set, or cancel it in openai's console\n`,
    );
    expect(keyless.stderr).not.toMatch(/\n\s+at /);
    expect(server.batches.map((b) => b.status)).toEqual(['in_progress']);

    const again = await runCli(['cancel', runId], { cwd: project, env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      `run ${runId} is already cancelled: cancelled batch ${batchId} at openai\n`,
    );
    expect(server.batches.map((b) => b.status)).toEqual(['cancelled']);
  }, 120_000);

  it("cancels it from the view's cancel button too, and says so on the run's page", async ({ expect }) => {
    const { server, project, env, runId } = await waitingRunNoWorkerServes();
    // The view only reads the embedded server that runs: the one the compare ran on was killed.
    await startServer(project, env);
    const view = startCli(['view', '--no-open', '--port', '0'], { cwd: project, env });
    try {
      const [, origin] = await view.waitFor(/llm-evals view: (http:\/\/127\.0\.0\.1:\d+)\//);
      const page = await (await fetch(`${origin}/runs/${runId}`)).text();
      const [, csrf] = /name="csrf" value="([^"]+)"/.exec(page) ?? [];
      const cancel = await fetch(`${origin}/runs/${runId}/cancel`, {
        method: 'POST',
        body: new URLSearchParams({ csrf: csrf ?? '', do: 'cancel' }),
        redirect: 'manual',
      });
      expect(cancel.status, await cancel.text()).toBe(303);
      const after = await (await fetch(`${origin}${cancel.headers.get('location')}`)).text();
      expect(after).toMatch(
        new RegExp(
          `<p class="banner">cancelled run ${runId}: no worker closed it, so Temporal ended it; cancelled batch ` +
            `batch_\\w+ at openai</p>`,
        ),
      );
      expect(server.batches.map((b) => b.status)).toEqual(['cancelled']);
      expect(server.chatCalls).toBe(0);
      expect(after + view.output().stdout + view.output().stderr).not.toContain(KEY);
    } finally {
      view.child.kill('SIGINT');
      await view.done;
    }
  }, 120_000);
});
