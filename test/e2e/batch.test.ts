import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatchServer, lineUserText, type BatchLine } from '../helpers/batch-server.ts';
import { runCli, runCliLong, startCli, type CliResult } from '../helpers/cli.ts';
import { killServer, ownServerEnv, startServer } from '../helpers/durable.ts';
import { TempDirs, TOY_SUITE, writeTree } from '../helpers/suite-dir.ts';
import { cliEnv, numberedCases, providerSuite, rowsByModel, savedSnapshot } from '../providers/cli-suite.ts';

const dirs = new TempDirs();
const CASES = 50;
const KEY = 'sk-batch-test-4f1c';
const USAGE = { prompt_tokens: 20, completion_tokens: 10 };

/** An endpoint section with a batch API (or without, for `plain`), priced so 50 echoed cases cost $2.00 one by one. */
const section = (name: string, url: string, batch: boolean) => `
${name}:
  base_url: ${url}
  api_key_env: BATCH_KEY
  prices: { input: 1000, output: 2000 }
  ${batch ? 'batch: true' : ''}
  models: [gpt-x]
`;

const env = (extra: Record<string, string> = {}) =>
  cliEnv(dirs.os(), { BATCH_KEY: KEY, LLM_EVALS_BATCH_POLL: '0.5,2', ...extra });

afterAll(() => dirs.removeAll());

describe.concurrent('compare --batch through the real CLI against a fake Batch API (B8)', () => {
  const server = new BatchServer({ delayMs: 1500 });
  let project: string;
  let run: CliResult;

  beforeAll(async () => {
    const url = await server.start();
    project = providerSuite(dirs, section('openai', url, true), numberedCases(CASES));
    run = await runCliLong(['compare', '--batch', '--display', 'tui', '--no-open'], {
      cwd: project,
      env: env(),
    });
  }, 180_000);

  afterAll(() => server.stop());

  it('sends every request once, in exactly one batch, and makes no direct call', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(server.batches).toHaveLength(1);
    expect(server.batches[0]!.metadata.round).toBe('1');
    expect(server.batches[0]!.metadata.run).toMatch(/^\d{8}-/);
    expect(server.requests).toHaveLength(CASES);
    expect(new Set(server.requests.map((r) => r.custom_id)).size).toBe(CASES);
    expect(server.chatCalls).toBe(0);
  });

  it('scores every case from the batch, at the batch price', () => {
    const { snapshot, text } = savedSnapshot(project);
    expect(snapshot.results).toHaveLength(CASES);
    expect(snapshot.results.every((r) => r.status === 'scored' && r.score === 1)).toBe(true);
    // The batch's replies are this run's calls, not replies found in the cache.
    expect(snapshot.results.some((r) => r.cached)).toBe(false);
    // 50 × (20 × $1000 + 10 × $2000) per million tokens = $2.00 one by one; half through the batch.
    const cost = snapshot.results.reduce((sum, r) => sum + (r.usage.costUsd ?? 0), 0);
    expect(cost).toBeCloseTo(1.0, 6);
    expect(snapshot.settings.batch).toEqual({ poll: [0.5, 2], discounts: { openai: 0.5 } });
    expect(rowsByModel(run.stdout)['openai/gpt-x']).toMatchObject({ errors: '0', cost: '$1.0000' });
    expect(run.stdout).toContain('cost at the batch price (batch, −50 %): openai');
    // The key went in the Authorization header, and nowhere the run keeps.
    expect([...server.authorizations]).toEqual([`Bearer ${KEY}`]);
    expect(text).not.toContain(KEY);
  });
});

describe.concurrent('compare --batch on an endpoint without a batch API', () => {
  it('is refused before anything is sent, naming the endpoint (exit 2)', async () => {
    const server = new BatchServer();
    const url = await server.start();
    try {
      const project = providerSuite(dirs, section('plain', url, false), numberedCases(3));
      const run = await runCli(['compare', '--batch', '--display', 'none'], { cwd: project, env: env() });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/--batch: the endpoint "plain" has no batch API/);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(server.batches).toHaveLength(0);
      expect(server.chatCalls).toBe(0);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe.concurrent('compare --batch killed while its batch runs, then resumed (D3)', () => {
  it('makes exactly one batch and scores every case once', async () => {
    const server = new BatchServer({ delayMs: 6000 });
    const url = await server.start();
    try {
      const project = providerSuite(dirs, section('openai', url, true), numberedCases(20));
      const runEnv = env();
      const cli = startCli(['compare', '--batch', '--display', 'none'], { cwd: project, env: runEnv });
      const [, runId] = await cli.waitFor(/run (\S+) started/);
      // Killed as soon as the batch exists: its submit may not even be recorded yet.
      const deadline = Date.now() + 60_000;
      while (server.batches.length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      cli.child.kill('SIGKILL');
      await cli.done;
      const resumed = await runCliLong(['resume', runId!, '--display', 'none'], {
        cwd: project,
        env: runEnv,
      });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(server.batches).toHaveLength(1);
      expect(server.requests).toHaveLength(20);
      expect(server.chatCalls).toBe(0);
      const { snapshot } = savedSnapshot(project);
      expect(snapshot.results).toHaveLength(20);
      expect(snapshot.results.every((r) => r.status === 'scored')).toBe(true);
    } finally {
      await server.stop();
    }
  }, 240_000);
});

describe.concurrent('a --batch run waiting on its batch', () => {
  it('shows the wait in status, and cancel RUN cancels the provider batch too', async () => {
    const server = new BatchServer({ delayMs: 120_000 });
    const url = await server.start();
    try {
      const project = providerSuite(dirs, section('openai', url, true), numberedCases(10));
      const runEnv = env();
      const cli = startCli(['compare', '--batch', '--display', 'none'], { cwd: project, env: runEnv });
      const [, runId] = await cli.waitFor(/run (\S+) started/);
      let status: CliResult | undefined;
      const deadline = Date.now() + 60_000;
      // The first look at the batch comes 0.5 s after it was made; status shows the wait once a look has answered.
      while (Date.now() < deadline && !/waiting for batch/.test(status?.stdout ?? '')) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        status = await runCli(['status', runId!], { cwd: project, env: runEnv });
      }
      expect(status!.stdout).toMatch(
        /: waiting for batch batch_\w+ at openai: \d+\/10 done, submitted \d+ s ago, expires in 24 h/,
      );
      const cancelled = await runCli(['cancel', runId!], { cwd: project, env: runEnv });
      expect(cancelled.code, cancelled.stderr).toBe(0);
      expect(server.batches.map((b) => b.status)).toEqual(['cancelled']);
      expect(server.chatCalls).toBe(0);
      await cli.done;
    } finally {
      await server.stop();
    }
  }, 180_000);
});

describe.concurrent('compare --batch whose first batch expires', () => {
  it('sends only the requests without a reply again, in a second batch', async () => {
    const server = new BatchServer({ delayMs: 1000, expire: (index) => (index === 0 ? 7 : undefined) });
    const url = await server.start();
    try {
      const project = providerSuite(dirs, section('openai', url, true), numberedCases(10));
      const run = await runCliLong(['compare', '--batch', '--display', 'none'], { cwd: project, env: env() });
      expect(run.code, run.stderr).toBe(0);
      expect(server.batches.map((b) => [b.status, b.metadata.round, b.lines.length])).toEqual([
        ['expired', '1', 10],
        ['completed', '2', 3],
      ]);
      const [first, second] = server.batches;
      expect(second!.lines.map((l) => l.custom_id)).toEqual(first!.lines.slice(7).map((l) => l.custom_id));
      expect(server.chatCalls).toBe(0);
      const { snapshot } = savedSnapshot(project);
      expect(snapshot.results.filter((r) => r.status === 'scored')).toHaveLength(10);
    } finally {
      await server.stop();
    }
  }, 180_000);
});

describe.concurrent('compare -n --batch', () => {
  it('estimates the cost at the batch price, and says so', async () => {
    const server = new BatchServer();
    const url = await server.start();
    try {
      const project = providerSuite(dirs, section('openai', url, true), numberedCases(5));
      const estimate = async (flags: string[]) => {
        const run = await runCli(['compare', '-n', ...flags], { cwd: project, env: env() });
        expect(run.code, run.stderr).toBe(0);
        return /estimated: .*\$(\d+\.\d+)(.*)/.exec(run.stdout)!;
      };
      const [, direct, directNote] = await estimate([]);
      const [, batch, batchNote] = await estimate(['--batch']);
      expect(Number(batch)).toBeCloseTo(Number(direct) / 2, 4);
      expect([directNote, batchNote]).toEqual(['', ' (batch, −50 %)']);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe.concurrent('compare --batch stopped by Ctrl-C while it waits', () => {
  it('leaves the run and its batch waiting, says how to go on, and status shows the wait', async () => {
    const server = new BatchServer({ delayMs: 120_000 });
    const url = await server.start();
    try {
      const project = providerSuite(dirs, section('openai', url, true), numberedCases(4));
      const runEnv = env();
      const cli = startCli(['compare', '--batch', '--display', 'none'], { cwd: project, env: runEnv });
      const [, runId] = await cli.waitFor(/run (\S+) started/);
      const deadline = Date.now() + 60_000;
      while (server.batches.length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      cli.child.kill('SIGINT');
      const stopped = await cli.done;
      expect(stopped.code, stopped.stderr).toBe(130);
      expect(stopped.stderr).toContain(`llm-evals resume ${runId}`);
      expect(server.batches.map((b) => b.status)).toEqual(['in_progress']);
      // With no worker up, status reads the wait from the run's history.
      const status = await runCli(['status', runId!], { cwd: project, env: runEnv });
      expect(status.stdout).toContain('(no worker is serving it now)');
      expect(status.stdout).toMatch(
        /: waiting for batch batch_\w+ at openai: 0\/4 done, submitted \d+ s ago, expires in 24 h/,
      );
      await runCli(['cancel', runId!], { cwd: project, env: runEnv });
    } finally {
      await server.stop();
    }
  }, 180_000);
});

describe.concurrent('compare --batch with an adapter that makes a second call from its first reply', () => {
  it('sends a second round with the second calls, and calls nothing directly', async () => {
    const server = new BatchServer({ delayMs: 500 });
    const url = await server.start();
    try {
      // Under the repository, where `import 'llm-evals'` resolves by self-reference.
      const project = writeTree(dirs.inRepo('batch-two-step-'), {
        ...numberedCases(6),
        'evals/two-step.ts': `import { type Case, type Model } from 'llm-evals';
import { ToyAdapter } from '${join(TOY_SUITE, 'lib/toy-suite.ts')}';
export { ToyScorer } from '${join(TOY_SUITE, 'lib/toy-suite.ts')}';
export class TwoStepAdapter extends ToyAdapter {
  override async call(kase: Case, model: Model) {
    const first = await model.complete({ system: 'Say it back.', user: JSON.stringify(kase.expected) });
    const echo: Model = { ...model, complete: (r) => model.complete({ ...r, system: 'Once more.', user: first.text }) };
    return super.call(kase, echo);
  }
}
`,
        'evals/.llm-evals.config.yml': [
          'import: ./evals/two-step.ts',
          'adapter: TwoStepAdapter',
          'scorer: ToyScorer',
          'request_types: [prompt]',
          section('openai', url, true),
        ].join('\n'),
      });
      const run = await runCliLong(['compare', '--batch', '--display', 'none'], { cwd: project, env: env() });
      expect(run.code, run.stderr).toBe(0);
      expect(server.batches.map((b) => [b.metadata.round, b.lines.length])).toEqual([
        ['1', 6],
        ['2', 6],
      ]);
      expect(server.batches[1]!.lines.every((l) => l.body.messages[0]!.content === 'Once more.')).toBe(true);
      expect(server.chatCalls).toBe(0);
      const { snapshot } = savedSnapshot(project);
      expect(snapshot.results.map((r) => r.status)).toEqual(Array(6).fill('scored'));
    } finally {
      await server.stop();
    }
  }, 180_000);
});

describe.concurrent('compare --batch with a request the provider refuses', () => {
  it('tries it in a second round, then once directly, and ends the case as an error', async () => {
    const refused = (line: BatchLine) => lineUserText(line).includes('bulk/002');
    const server = new BatchServer({
      delayMs: 500,
      chat: true,
      answer: (line) =>
        refused(line) ? { status: 400, message: 'bad request' } : { text: lineUserText(line), usage: USAGE },
    });
    const url = await server.start();
    try {
      const project = providerSuite(dirs, section('openai', url, true), numberedCases(5));
      const run = await runCliLong(['compare', '--batch', '--display', 'none'], { cwd: project, env: env() });
      expect(run.code, run.stderr).toBe(0);
      expect(server.batches.map((b) => b.lines.length)).toEqual([5, 1]);
      expect(server.chatCalls).toBe(1);
      const { snapshot } = savedSnapshot(project);
      const byCase = Object.fromEntries(snapshot.results.map((r) => [r.caseKey, r]));
      expect(Object.values(byCase).filter((r) => r.status === 'scored')).toHaveLength(4);
      expect(byCase['pets/bulk/002']!.status).toBe('error');
      expect(byCase['pets/bulk/002']!.error).toMatch(/bad request/);
    } finally {
      await server.stop();
    }
  }, 180_000);
});

describe.concurrent(
  'a --batch run whose worker and Temporal server are SIGKILLed while it waits (D3)',
  () => {
    it('makes exactly one batch, and a new worker on the restarted server scores every case once', async () => {
      const server = new BatchServer({ delayMs: 8000 });
      const url = await server.start();
      const project = providerSuite(dirs, section('openai', url, true), numberedCases(20));
      const runEnv = { ...env(), ...(await ownServerEnv(project)) };
      const cli = (args: string[]) => runCliLong(args, { cwd: project, env: runEnv });
      try {
        await startServer(project, runEnv);
        const started = await cli(['start', '--batch', '--no-worker']);
        expect(started.code, started.stderr).toBe(0);
        const runId = started.stdout.trim().split('\n').pop()!;
        const first = startCli(['worker', '--until', runId], { cwd: project, env: runEnv });
        const deadline = Date.now() + 60_000;
        while (server.batches.length === 0 && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 20));
        expect(server.batches).toHaveLength(1);
        // Both gone while the provider works: the batch id must already be in the history, and the wait a timer.
        first.child.kill('SIGKILL');
        await first.done;
        killServer(project);
        await startServer(project, runEnv);
        const second = await runCliLong(['worker', '--until', runId], {
          cwd: project,
          env: runEnv,
          timeoutMs: 180_000,
        });
        expect(second.code, second.stderr).toBe(0);
        const report = await cli(['report', runId, '--format', 'json']);
        expect(report.code, report.stderr).toBe(0);
        const results = (JSON.parse(report.stdout) as { results: { caseKey: string; status: string }[] })
          .results;
        expect(server.batches).toHaveLength(1);
        expect(server.requests).toHaveLength(20);
        expect(server.chatCalls).toBe(0);
        expect(results).toHaveLength(20);
        expect(new Set(results.map((r) => r.caseKey)).size).toBe(20);
        expect(results.every((r) => r.status === 'scored')).toBe(true);
      } finally {
        await runCli(['server', 'stop', '--force'], { cwd: project, env: runEnv });
        await server.stop();
      }
    }, 300_000);
  },
);
