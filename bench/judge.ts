// How close the judge's calls come to their own bound. N replies (1,000) of the toy suite, each judged by a judge
// answering after L = 200 ms, at concurrency C = 16 (`-p 16`: the judge's calls ride the contender's pool): the real
// `llm-evals compare` on its own embedded Temporal server against a chat-completions server on 127.0.0.1 that answers
// the contender at once and the judge after L. It prints the judge calls' span (first call in to last verdict out, at
// the server), the command's wall, and each's ratio to N·L/C (target: the wall within 1.15×, its start and close
// included).
// With `control` as the fourth argument, the same N calls of L ms are the contender's own and nothing is judged: the
// engine's bound on this machine at this load, to read the judged run's ratio against.
// Usage: node --import tsx bench/judge.ts [N] [L ms] [C] [control]     (default: 1000 200 16)
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Snapshot } from '../src/core/snapshot.ts';
import { benchEnv, phaseMarks, runToyCli, writeToySuite } from './toy-cli.ts';

const n = Number(process.argv[2] ?? 1000);
const latencyMs = Number(process.argv[3] ?? 200);
const concurrency = Number(process.argv[4] ?? 16);
const control = process.argv[5] === 'control';
/** The model whose calls are held L ms and counted: the judge, or the contender itself in the control run. */
const held = control ? 'm' : 'judge';
const repo = resolve(import.meta.dirname, '..');
const root = join(repo, 'tmp', 'bench-judge');
const suiteDir = join(root, 'suite');
const env = benchEnv(root, '7646', {
  COLUMNS: '120',
  LLM_EVALS_CACHE_DIR: join(root, 'replies'),
});

/** The judge's calls as the server saw them: when each came in and when its verdict went out (ms). */
const judged: { start: number; end: number }[] = [];
let inFlight = 0;
let most = 0;

const body = (request: IncomingMessage) =>
  new Promise<Record<string, unknown>>((done) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => done(JSON.parse(text || '{}') as Record<string, unknown>));
  });
const completion = (model: unknown, content: string) => ({
  id: 'c',
  object: 'chat.completion',
  created: 0,
  model,
  choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 100, completion_tokens: 10 },
});

const server = createServer((request, response) => {
  void (async () => {
    if (!request.url?.endsWith('/chat/completions')) {
      response.writeHead(404).end('{}');
      return;
    }
    const asked = await body(request);
    const messages = asked.messages as { role: string; content: string }[];
    const user = messages.findLast((m) => m.role === 'user')?.content ?? '';
    let content = user;
    if (asked.model === held) {
      const start = performance.now();
      most = Math.max(most, ++inFlight);
      await new Promise((wake) => setTimeout(wake, latencyMs));
      inFlight--;
      judged.push({ start, end: performance.now() });
      if (!control) content = JSON.stringify({ reasoning: 'fine', score: 'pass' });
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(completion(asked.model, content)));
  })();
});

function writeSuite(url: string): void {
  writeToySuite(
    suiteDir,
    [
      'j:',
      `  base_url: ${url}`,
      '  models: [m]',
      ...(control
        ? []
        : ['judge:', '  model: j/judge', '  rubric: Does the reply name the animal?', '  scale: pass_fail']),
    ],
    n,
  );
}

/**
 * How long a place in flight stood empty between one held call's end and the next one's start (each end paired with
 * the first start after it): the case's other work (its answer, the cache, the report) and the process's waits.
 */
function slotGaps(calls: { start: number; end: number }[]): string {
  const starts = calls.map((c) => c.start).sort((a, b) => a - b);
  const gaps: number[] = [];
  let next = 0;
  for (const end of calls.map((c) => c.end).sort((a, b) => a - b)) {
    while (next < starts.length && starts[next]! < end) next++;
    if (next < starts.length) gaps.push(starts[next++]! - end);
  }
  gaps.sort((a, b) => a - b);
  const at = (q: number) => gaps[Math.floor(q * (gaps.length - 1))]!.toFixed(1);
  const mean = gaps.reduce((sum, g) => sum + g, 0) / Math.max(1, gaps.length);
  return `gaps between held calls (ms): mean ${mean.toFixed(1)}, median ${at(0.5)}, p90 ${at(0.9)}, p99 ${at(0.99)}`;
}

const cli = (args: string[]) => runToyCli(args, suiteDir, env);

rmSync(root, { recursive: true, force: true });
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
writeSuite(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
await cli(['server', 'start']).catch((error: Error) => console.error(error.message));
try {
  const run = await cli(['compare', '-p', String(concurrency), '--display', 'none', '--no-open', '-y']);
  const dir = join(suiteDir, 'evals', 'results');
  const file = readdirSync(dir).find((f) => f.endsWith('.json'))!;
  const snapshot = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Snapshot;
  const scored = snapshot.results.filter(
    (r) => r.status === 'scored' && (control || r.metrics.judge === 1),
  ).length;
  const first = Math.min(...judged.map((j) => j.start));
  const last = Math.max(...judged.map((j) => j.end));
  const span = (last - first) / 1000;
  const bound = (judged.length * latencyMs) / 1000 / concurrency;
  const what = control ? "the contender's calls (control: no judge)" : 'the judge calls';
  console.log(
    `${n} replies, ${control ? 'the contender' : '1 judge'} at ${latencyMs} ms, concurrency ${concurrency}`,
  );
  console.log(`calls held ${judged.length}, scored ${scored}/${n}, most held calls in flight ${most}`);
  console.log(`N·L/C of ${what}: ${bound.toFixed(2)} s`);
  console.log(`held calls' span: ${span.toFixed(2)} s (${(span / bound).toFixed(3)}× N·L/C)`);
  console.log(
    `compare's wall: ${run.seconds.toFixed(2)} s (${(run.seconds / bound).toFixed(3)}× N·L/C; target ≤ 1.15)`,
  );
  // With LLM_EVALS_TIMINGS set, where the wall beyond the span went: the compare's phase marks, and the first held
  // call in and the last out, in seconds since the command was spawned; and where the span beyond N·L/C went: the
  // gaps between held calls.
  if (process.env.LLM_EVALS_TIMINGS) {
    console.error(phaseMarks(run.stderr).join('\n'));
    const since = (t: number) => ((t - run.started) / 1000).toFixed(3);
    console.error(`first held call in at ${since(first)} s, last out at ${since(last)} s`);
    console.error(slotGaps(judged));
  }
} finally {
  await cli(['server', 'stop']).catch(() => undefined);
  server.close();
}
