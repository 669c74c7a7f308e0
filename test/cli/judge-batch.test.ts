import { describe, expect, it } from 'vitest';
import { BatchServer, lineUserText, type BatchLine } from '../helpers/batch-server.ts';
import { runCliLong } from '../helpers/cli.ts';
import { cliFixtures } from '../helpers/cli-fixtures.ts';
import { cliEnv, numberedCases, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';

// `compare --batch` with a judge its endpoint serves, through the real CLI against a fake Batch API on 127.0.0.1: the
// answers go in one batch, the verdicts in a round of their own after it (one model per batch, as OpenAI asks), and
// nothing is called one by one (the fake answers a direct chat call 599).

const { dirs } = cliFixtures();
const CASES = 6;

describe('compare --batch with a judge', () => {
  it('sends the verdicts in a judge round after the answers, at the batch price', async () => {
    const answer = (line: BatchLine) =>
      line.body.model === 'judge'
        ? {
            text: JSON.stringify({ reasoning: 'ok', score: 'pass' }),
            usage: { prompt_tokens: 100, completion_tokens: 10 },
          }
        : { text: lineUserText(line), usage: { prompt_tokens: 20, completion_tokens: 10 } };
    const server = new BatchServer({ delayMs: 300, answer });
    const url = await server.start();
    try {
      const project = providerSuite(
        dirs,
        `lab:\n  base_url: ${url}\n  api_key_env: BATCH_KEY\n  prices: { input: 1, output: 2 }\n  batch: true\n  models: [m]\n` +
          'judge:\n  model: lab/judge\n  rubric: Is it a case?\n  scale: pass_fail\n',
        numberedCases(CASES),
      );
      const env = cliEnv(dirs.os(), { BATCH_KEY: 'sk-judge-batch', LLM_EVALS_BATCH_POLL: '0.3,1' });
      const run = await runCliLong(['compare', '--batch', '--display', 'none', '--no-open'], {
        cwd: project,
        env,
      });
      expect(run.code, run.stderr).toBe(0);
      expect(server.chatCalls).toBe(0);
      expect(
        server.batches.map((b) => [b.metadata.round, [...new Set(b.lines.map((l) => l.body.model))]]),
      ).toEqual([
        ['1', ['m']],
        ['2', ['judge']],
      ]);
      expect(server.batches[1]!.lines).toHaveLength(CASES);
      const { snapshot } = savedSnapshot(project);
      for (const r of snapshot.results) {
        expect(r.status).toBe('scored');
        expect(r.metrics.judge).toBe(1);
        // The verdict is this run's call, paid at half the price: (100 × $1 + 10 × $2) / 1e6 / 2.
        expect(r.diagnostics.judge_calls).toBe(1);
        expect(r.diagnostics.judge_usd).toBeCloseTo(0.00006, 10);
      }
      expect(run.stderr).toContain('judge: 6 calls');
    } finally {
      await server.stop();
    }
  }, 180_000);
});
