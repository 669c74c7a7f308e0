import { writeTree } from '../helpers/suite-dir.ts';

/** What the hostile case's model replies: markup and script that must show as text and run nothing. */
export const HOSTILE_REPLY =
  '<script>alert(1)</script><img src=x onerror=alert(1)> <a href="javascript:alert(1)">x</a>';

/** The case whose reply is {@link HOSTILE_REPLY}. */
export const HOSTILE_CASE = 'north/clear/002';

// A provider that echoes the prompt after CALL_DELAY_MS, but answers the hostile case with markup; an exact scorer.
const HELPER = `import { setTimeout as sleep } from 'node:timers/promises';
import {
  defineSuite,
  EchoAdapter,
  Scorer,
  type Case,
  type CatalogEntry,
  type CompletionRequest,
  type Metric,
  type ModelSettings,
  type Provider,
  type ProviderResponse,
  type Reply,
  type Score,
} from 'llm-evals';

class SlowProvider implements Provider {
  readonly name = 'slow';
  readonly requestType = 'prompt';
  readonly requestTypeDescription = 'a chat prompt echoed after a delay';
  readonly prefix = 'slow/';
  readonly direct = false;
  readonly envKeys: string[] = [];
  readonly efforts: string[] = [];

  catalog(): CatalogEntry[] {
    return ['alpha', 'beta', 'gamma', 'delta'].map((name) => ({ id: 'slow/' + name, inputPrice: 1e-6, outputPrice: 2e-6 }));
  }

  async complete(model: ModelSettings & { name: string; id: string }, request: CompletionRequest): Promise<ProviderResponse> {
    await sleep(Number(process.env.CALL_DELAY_MS ?? 10));
    const expected = JSON.parse(request.user) as { id: string };
    const text = expected.id === ${JSON.stringify(HOSTILE_CASE)} ? ${JSON.stringify(HOSTILE_REPLY)} : request.user;
    return { text, usage: { inputTokens: 10, outputTokens: 12, costUsd: model.name === 'alpha' ? 0.00002 : 0.00005 } };
  }
}

class ExactScorer extends Scorer {
  metrics(): Metric[] {
    return [{ name: 'exact', description: '1 when the reply is the expected JSON.', primary: true }];
  }

  call(kase: Case, reply: Reply): Score {
    const same = JSON.stringify(reply.output) === JSON.stringify(kase.expected) ? 1 : 0;
    return { value: same, metrics: { exact: same } };
  }
}

export default defineSuite({
  name: 'viewed',
  root: import.meta.dirname,
  cases: 'datasets/*/cases/**/input.txt',
  adapter: new EchoAdapter(),
  scorer: new ExactScorer(),
  providers: [new SlowProvider()],
});
`;

const config = (models: readonly string[]) => `project: viewed
request_types: [prompt]
defaults:
  parallelism: 1
results:
  display: tui
slow:
  models:
${models.map((m) => `    - ${m}\n`).join('')}`;

/**
 * Writes the viewed suite into `dir` (under the repository's tmp/): `cases` cases over two datasets, the models named
 * (of alpha, beta, gamma and delta).
 */
export function writeViewSuite(
  dir: string,
  cases: number,
  models: readonly string[] = ['alpha', 'beta'],
): void {
  const files: Record<string, string> = {
    'evals/eval_helper.ts': HELPER,
    'evals/.llm-evals.config.yml': config(models),
  };
  for (let i = 0; i < cases; i++) {
    const dataset = i % 2 ? 'south' : 'north';
    const id = `clear/${String(Math.floor(i / 2) + 1).padStart(3, '0')}`;
    files[`evals/datasets/${dataset}/cases/${id}/input.txt`] = `Case ${dataset}/${id}: <b>say</b> it back.\n`;
    files[`evals/datasets/${dataset}/cases/${id}/expected.json`] =
      JSON.stringify({ id: `${dataset}/${id}` }) + '\n';
  }
  writeTree(dir, files);
}
