// Measures the call rate a run achieves against a `per_minute` limit, with one worker and with two.
// The limit holds for the whole run across workers because one gate workflow hands out every slot (S7, D2).
// Usage: node --import tsx bench/rate-limit.ts [per_minute=120] [burst=5] [seconds=120]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [perMinute = 120, burst = 5, seconds = 120] = process.argv.slice(2).map(Number);
const repo = resolve(import.meta.dirname, '..');
const bin = join(repo, 'bin', 'llm-evals.mjs');
const cases = burst + Math.ceil((perMinute * seconds) / 60) + 40;

function suite(dir: string, calls: string): void {
  rmSync(dir, { recursive: true, force: true });
  const evals = join(dir, 'evals');
  mkdirSync(evals, { recursive: true });
  writeFileSync(
    join(evals, 'eval_helper.ts'),
    `import { appendFileSync } from 'node:fs';
import { defineSuite, EchoAdapter, Scorer } from 'llm-evals';
const stamp = { name: 'stamp', requestType: 'prompt', requestTypeDescription: 'records call times', prefix: 'stamp/', direct: false,
  envKeys: [], efforts: [], catalog: () => [],
  async complete(_model, request) {
    appendFileSync(${JSON.stringify(calls)}, JSON.stringify({ t: Date.now(), pid: process.pid }) + '\\n');
    return { text: request.user, usage: { inputTokens: 1, outputTokens: 1, costUsd: 0 } };
  } };
class Same extends Scorer {
  metrics() { return [{ name: 'exact', description: 'same JSON', primary: true }]; }
  call(kase, reply) { const v = JSON.stringify(kase.expected) === JSON.stringify(reply.output) ? 1 : 0; return { value: v, metrics: { exact: v } }; }
}
export default defineSuite({ name: 'rate', root: import.meta.dirname, adapter: new EchoAdapter(), scorer: new Same(), providers: [stamp] });
`,
  );
  writeFileSync(
    join(evals, '.llm-evals.config.yml'),
    `request_types: [prompt]\nresults: { display: none }\nstamp:\n  rate_limit: { burst: ${burst}, per_minute: ${perMinute} }\n  models: [m]\n`,
  );
  for (let i = 0; i < cases; i++) {
    const folder = join(evals, 'datasets', 'd', 'cases', 'v', String(i).padStart(5, '0'));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'input.txt'), `case ${i}\n`);
    writeFileSync(join(folder, 'expected.json'), JSON.stringify({ n: i }));
  }
}

async function measure(workers: number): Promise<void> {
  const dir = join(repo, 'tmp', `bench-rate-${workers}`);
  const calls = join(dir, 'calls.jsonl');
  suite(dir, calls);
  const env = {
    ...process.env,
    NO_COLOR: '1',
    TEMPORAL_ADDRESS: '',
    LLM_EVALS_TEMPORAL_PORT: process.env.LLM_EVALS_TEMPORAL_PORT ?? '7633',
  };
  spawnSync(process.execPath, [bin, 'server', 'start'], { cwd: dir, env, stdio: 'ignore' });
  const started = spawnSync(process.execPath, [bin, 'start', '--no-worker', '--no-cache', '-p', '32'], {
    cwd: dir,
    env,
    encoding: 'utf8',
  });
  const runId = started.stdout.trim();
  const children = Array.from({ length: workers }, () =>
    spawn(process.execPath, [bin, 'worker', '--until', runId], { cwd: dir, env, stdio: 'ignore' }),
  );
  await new Promise((done) => setTimeout(done, seconds * 1000 + 15_000));
  spawnSync(process.execPath, [bin, 'cancel', runId], { cwd: dir, env, stdio: 'ignore' });
  for (const child of children) child.kill('SIGTERM');
  spawnSync(process.execPath, [bin, 'server', 'stop'], { cwd: dir, env, stdio: 'ignore' });
  const lines = existsSync(calls)
    ? readFileSync(calls, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { t: number; pid: number })
    : [];
  const t0 = Math.min(...lines.map((l) => l.t));
  const within = (s: number) => lines.filter((l) => l.t - t0 < s * 1000).length;
  const pids = new Set(lines.map((l) => l.pid)).size;
  const rate = ((within(seconds) - burst) / seconds) * 60;
  console.log(
    `${workers} worker(s), ${pids} process(es) called: ${within(30)} calls in 30 s (expected ${burst + perMinute / 2}), ` +
      `${within(seconds)} in ${seconds} s (expected ${burst + (perMinute * seconds) / 60}); after the burst: ${rate.toFixed(1)} calls/min against ${perMinute}`,
  );
}

console.log(`limit: burst ${burst}, per_minute ${perMinute}; ${cases} cases, -p 32`);
await measure(1);
await measure(2);
