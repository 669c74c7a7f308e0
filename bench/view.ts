// Measures `llm-evals view`: the runs list with RUNS runs on a real Temporal dev server (one of its own, state under
// tmp/bench-view, never the user's), and a run page with RESULTS results (read from a saved snapshot, so the figure is
// the view's own parse and render, not a big run's history read). Prints each page's time, cold and warm, and the
// view's resident memory. The newest REAL runs (the list's first page and a bit) are real runs, started with `start`
// and served by a real `worker` over 4 contenders × 60 cases, so their rows have experiments' histories to read;
// the older ones are runs ended at once.
// Usage: node --import tsx bench/view.ts [runs=1000] [results=20000] [real=60]
// BENCH_VIEW_NODE_ARGS: Node flags for the view's process (`--max-semi-space-size=64` runs it with V8's own heap
// sizes on this machine: the view then does not start itself again with its own).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contenderKey } from '../src/core/matrix.ts';
import type { CaseResult } from '../src/core/results.ts';
import type { RunInput } from '../src/core/run-input.ts';
import { buildSnapshot, type RunHeader } from '../src/core/snapshot.ts';
import { gateWorkflowId, runWorkflowId } from '../src/core/run-input.ts';
import { linkTemporal } from '../src/client/connect.ts';

const [runs = 1000, results = 20_000, real = 60] = process.argv.slice(2).map(Number);
const repo = resolve(import.meta.dirname, '..');
const dir = join(repo, 'tmp', 'bench-view');
const bin = join(repo, 'bin', 'llm-evals.mjs');
const env = {
  ...process.env,
  NO_COLOR: '1',
  LLM_EVALS_TEMPORAL_PORT: process.env.LLM_EVALS_TEMPORAL_PORT ?? '7534',
  LLM_EVALS_STATE_DIR: join(dir, 'state'),
  TEMPORAL_ADDRESS: '',
};
const port = Number(env.LLM_EVALS_TEMPORAL_PORT);
// The server's runs are kept between bench runs (making them takes a minute); `rm -rf tmp/bench-view` starts afresh.
rmSync(join(dir, 'evals'), { recursive: true, force: true });
mkdirSync(join(dir, 'evals', 'results'), { recursive: true });
// A suite, so that `view` started here shows its saved snapshots.
writeFileSync(
  join(dir, 'evals', 'eval_helper.ts'),
  `import { defineSuite, EchoAdapter, FakeProvider, Scorer } from 'llm-evals';
class Same extends Scorer {
  metrics() { return [{ name: 'exact', description: 'same JSON', primary: true }]; }
  call() { return { value: 1, metrics: { exact: 1 } }; }
}
export default defineSuite({ name: 'bench', root: import.meta.dirname, adapter: new EchoAdapter(), scorer: new Same(),
  providers: [new FakeProvider({ models: { echo: 'echo', a: () => '{"n": 2}', b: () => '{"n": 3}', c: () => 'no' } })] });
`,
);
writeFileSync(
  join(dir, 'evals', '.llm-evals.config.yml'),
  'request_types: [prompt]\ndefaults: { parallelism: 4 }\nfake: { models: [echo, a, b, c] }\n',
);
// The real runs' cases: 30 per dataset.
for (let i = 0; i < 60; i++) {
  const caseDir = join(dir, 'evals', 'datasets', i % 2 ? 'south' : 'north', 'cases', 'v', String(i));
  mkdirSync(caseDir, { recursive: true });
  writeFileSync(join(caseDir, 'input.txt'), `say ${i}\n`);
  writeFileSync(join(caseDir, 'expected.json'), `{"n": ${i}}\n`);
}

const contender = (id: string) => {
  const base = { provider: 'fake', id, effort: 'default', temperature: null, maxTokens: null };
  return { ...base, key: contenderKey(base), model: id.split('/')[1]!, limits: [] };
};
const CONTENDERS = ['fake/a', 'fake/b', 'fake/c', 'fake/d'].map(contender);
const HEADER: RunHeader = {
  createdAt: new Date().toISOString(),
  suite: { name: 'bench', project: dir },
  options: {},
  settings: { parallelism: 1, concurrency: 1 },
  metrics: [{ name: 'exact', description: 'same JSON', primary: true }],
  refused: [],
};

/** A run's input: every contender over two datasets of `cases` cases. */
function inputOf(runId: string, cases: number): RunInput {
  const datasets: RunInput['datasets'] = { north: [], south: [] };
  for (let i = 0; i < cases; i++) datasets[i % 2 ? 'south' : 'north']!.push([`d${i % 2}/v/${i}`, `h${i}`]);
  const experiments = CONTENDERS.flatMap((_, c) =>
    ['north', 'south'].map((dataset) => ({ id: `${c}-${dataset}`, contender: c, dataset })),
  );
  return {
    runId,
    suite: 'bench',
    contenders: CONTENDERS,
    experiments,
    datasets,
    parallelism: 1,
    concurrency: 1,
    limits: {},
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
async function timed(url: string): Promise<{ ms: number; status: number; bytes: number }> {
  const t = performance.now();
  const response = await fetch(url);
  const text = await response.text();
  return { ms: performance.now() - t, status: response.status, bytes: text.length };
}
async function measure(label: string, url: string, times = 5, rss = () => 0): Promise<void> {
  const cold = await timed(url);
  if (cold.status !== 200) throw new Error(`${label}: ${cold.status}`);
  const warm: number[] = [];
  for (let i = 0; i < times; i++) warm.push((await timed(url)).ms);
  console.log(
    `${label}: cold ${cold.ms.toFixed(0)} ms, warm median ${median(warm).toFixed(0)} ms (${(cold.bytes / 1024).toFixed(0)} KB; view ${rss().toFixed(0)} MB)`,
  );
}

spawnSync(process.execPath, [bin, 'server', 'start'], { cwd: dir, env, stdio: 'inherit' });
const link = await linkTemporal({ env, log: () => undefined });
try {
  // RUNS - REAL closed runs (their workflows started, then ended), as Temporal's visibility lists them.
  let have = 0;
  for await (const _ of link.runs.list({})) have++;
  const made = performance.now();
  const ended = Math.max(0, runs - real);
  for (let i = have; i < ended; i += 25) {
    await Promise.all(
      Array.from({ length: Math.min(25, ended - i) }, async (_, j) => {
        const runId = `bench-${String(i + j).padStart(5, '0')}`;
        await link.runs.start('bench-view-nobody', inputOf(runId, 50), HEADER, dir);
        await link.client.workflow.getHandle(runWorkflowId(runId)).terminate('bench');
        await link.client.workflow.getHandle(gateWorkflowId(runId)).terminate('bench');
      }),
    );
  }
  // Then the REAL newest runs, started and served as a user's would be (the reply cache off: every call is made).
  const starts: string[] = [];
  const startOne = () =>
    new Promise<string>((done, fail) => {
      const child = spawn(process.execPath, [bin, 'start', '--no-worker', '--no-cache', '--local'], {
        cwd: dir,
        env,
      });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.on('exit', (code) =>
        code === 0 && out.trim() ? done(out.trim()) : fail(new Error(`start: ${code}`)),
      );
    });
  for (let i = Math.max(have, ended); i < runs; i += 4) {
    // A few at a time: each is a CLI start; their ids (time-stamped) sort as they started.
    starts.push(...(await Promise.all(Array.from({ length: Math.min(4, runs - i) }, startOne))));
  }
  starts.sort();
  if (starts.length) {
    const worker = spawn(process.execPath, [bin, 'worker'], { cwd: dir, env, stdio: 'ignore' });
    const running = async () => {
      let n = 0;
      for await (const l of link.runs.list({})) if (l.state === 'running') n++;
      return n;
    };
    while ((await running()) > 0) await new Promise((resolve) => setTimeout(resolve, 2000));
    worker.kill('SIGINT');
  }
  console.log(
    `made ${runs - have} runs (${starts.length} served by a worker) in ${((performance.now() - made) / 1000).toFixed(1)} s (${have} there before)`,
  );
  // Visibility is eventually consistent: wait until it lists them all.
  for (let listed = 0; listed < runs;) {
    listed = 0;
    for await (const _ of link.runs.list({})) listed++;
  }

  const snapshot = buildSnapshot({
    runId: 'big',
    header: HEADER,
    input: inputOf('big', results / CONTENDERS.length),
    status: 'completed',
    results: [],
    cases: [],
    finishedAt: new Date().toISOString(),
  });
  snapshot.results = snapshot.experiments.flatMap((e) =>
    e.caseKeys.map((caseKey, i): CaseResult => ({
      experimentId: e.id,
      caseKey,
      status: i % 50 === 7 ? 'reply_error' : 'scored',
      score: i % 3 ? 1 : 0,
      metrics: { exact: i % 3 ? 1 : 0 },
      outcomes: {},
      diagnostics: {},
      reply: `{"n": ${i}}`,
      usage: { inputTokens: 40, outputTokens: 12, costUsd: 0.00001 },
      latency: 0.2 + (i % 10) / 10,
      duration: 0.3,
      startedAt: snapshot.createdAt,
      finishedAt: snapshot.createdAt,
      attempts: 1,
      ...(i % 50 === 7 ? { error: 'not JSON' } : {}),
    })),
  );
  writeFileSync(join(dir, 'evals', 'results', 'big.json'), JSON.stringify(snapshot));

  // The real command, as a user starts it: its own process, so its memory is its own.
  const nodeArgs = (process.env.BENCH_VIEW_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const view = spawn(process.execPath, [...nodeArgs, bin, 'view', '--no-open', '--port', '0'], {
    cwd: dir,
    env: { ...env, TEMPORAL_ADDRESS: `127.0.0.1:${port}` },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const origin = await new Promise<string>((done) => {
    let out = '';
    view.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const found = /llm-evals view: (http:\/\/[^/\s]+)/.exec(out);
      if (found) done(found[1]!);
    });
  });
  const rss = (field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${view.pid}/status`, 'utf8'))?.[1]) /
    1024;
  console.log(`view process at start: ${rss('VmRSS').toFixed(0)} MB`);
  const now = () => rss('VmRSS');
  await measure(`runs list, ${runs} runs (page of 50, from visibility)`, `${origin}/`, 5, now);
  await measure('runs list, its rows counted (the script fetches them)', `${origin}/fragment/runs`, 5, now);
  await measure('runs list, page 10', `${origin}/?page=9`, 5, now);
  await measure('runs list, page 10 counted', `${origin}/fragment/runs?page=9`, 5, now);
  const big = `${origin}/saved/big.json`;
  await measure(`run page, ${snapshot.results.length} results (saved snapshot)`, big, 5, now);
  await measure('run page, its cases page 100', `${big}?page=99`, 5, now);
  await measure('case page of that run', `${big}/case?key=${encodeURIComponent('d0/v/0')}`, 5, now);
  console.log(`view process: peak ${rss('VmHWM').toFixed(0)} MB, now ${rss('VmRSS').toFixed(0)} MB`);
  view.kill('SIGINT');
} finally {
  await link.close();
  spawnSync(process.execPath, [bin, 'server', 'stop'], { cwd: dir, env, stdio: 'inherit' });
}
