// The suite the chaos bench runs: N cases split over the datasets, one model whose provider records every call.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChaosOptions } from './options.ts';
import { recordFile, suiteDir } from './options.ts';

/** The suite's helper: a provider that appends a line to `recordFile` when each call starts and when it ends. */
function helper(latencyMs: number): string {
  return `import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineSuite, EchoAdapter, Scorer } from 'llm-evals';
import type { CatalogEntry, CompletionRequest, ModelSettings, Provider, ProviderResponse } from 'llm-evals';

const RECORD = ${JSON.stringify(recordFile)};
let calls = 0;

// Appends {case, pid, n, t} when a call starts and {pid, n, t, end} when it ends; O_APPEND lines this short are atomic.
class RecordingProvider implements Provider {
  readonly name = 'rec';
  readonly prefix = 'rec/';
  readonly requestType = 'prompt';
  readonly requestTypeDescription = 'a chat prompt echoed after a fixed delay, each call recorded';
  readonly direct = false;
  readonly envKeys: string[] = [];
  readonly efforts: string[] = [];
  catalog(): CatalogEntry[] {
    return [{ id: 'rec/echo', inputPrice: 0, outputPrice: 0 }];
  }
  async complete(model: ModelSettings & { name: string; id: string }, request: CompletionRequest) {
    const n = ++calls;
    const kase = model.id + ' ' + (JSON.parse(request.user) as { id: string }).id;
    appendFileSync(RECORD, JSON.stringify({ case: kase, pid: process.pid, n, t: Date.now() }) + '\\n');
    await sleep(${latencyMs});
    appendFileSync(RECORD, JSON.stringify({ pid: process.pid, n, t: Date.now(), end: true }) + '\\n');
    return { text: request.user, usage: { inputTokens: 10, outputTokens: 5, costUsd: 0 } } satisfies ProviderResponse;
  }
}

class Same extends Scorer {
  metrics() { return [{ name: 'exact', description: 'same JSON', primary: true }]; }
  call(kase, reply) { const v = JSON.stringify(kase.expected) === JSON.stringify(reply.output) ? 1 : 0; return { value: v, metrics: { exact: v } }; }
}

export default defineSuite({ name: 'chaos', root: import.meta.dirname, adapter: new EchoAdapter(), scorer: new Same(),
  providers: [new RecordingProvider()] });
`;
}

/** Writes the suite into `suiteDir`: its helper, its lineup, and `cases` cases dealt round the datasets. */
export function writeChaosSuite({ cases, datasets, latencyMs }: ChaosOptions): void {
  const evals = join(suiteDir, 'evals');
  mkdirSync(evals, { recursive: true });
  writeFileSync(join(evals, 'eval_helper.ts'), helper(latencyMs));
  writeFileSync(
    join(evals, '.llm-evals.config.yml'),
    'request_types: [prompt]\nresults: { display: none }\nrec: { models: [echo] }\n',
  );
  for (let i = 0; i < cases; i++) {
    const dataset = `d${i % datasets}`;
    const id = `v/${String(Math.floor(i / datasets)).padStart(5, '0')}`;
    const folder = join(evals, 'datasets', dataset, 'cases', id);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'input.txt'), `case ${i}\n`);
    writeFileSync(join(folder, 'expected.json'), JSON.stringify({ id: `${dataset}/${id}` }));
  }
}
