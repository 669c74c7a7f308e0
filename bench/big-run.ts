// Measures a big run end to end: `start --no-worker`, then one `worker` process serving it, on the embedded server.
// Prints the wall time, cases per second and the peak memory (max RSS) of the CLI processes and of the server.
// The server is one of its own (state under tmp/bench-big-run), never the user's.
// Usage: node --import tsx bench/big-run.ts [cases=20000] [parallelism=8] [concurrency=4]
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [cases = 20_000, parallelism = 8, concurrency = 4] = process.argv.slice(2).map(Number);
const repo = resolve(import.meta.dirname, '..');
const dir = join(repo, 'tmp', 'bench-big-run');
const bin = join(repo, 'bin', 'llm-evals.mjs');
const datasets = 4;

rmSync(dir, { recursive: true, force: true });
const evals = join(dir, 'evals');
mkdirSync(evals, { recursive: true });
writeFileSync(
  join(evals, 'eval_helper.ts'),
  `import { defineSuite, EchoAdapter, FakeProvider, Scorer } from 'llm-evals';
class Same extends Scorer {
  metrics() { return [{ name: 'exact', description: 'same JSON', primary: true }]; }
  call(kase, reply) { const v = JSON.stringify(kase.expected) === JSON.stringify(reply.output) ? 1 : 0; return { value: v, metrics: { exact: v } }; }
}
export default defineSuite({ name: 'big', root: import.meta.dirname, adapter: new EchoAdapter(), scorer: new Same(),
  providers: [new FakeProvider({ models: { echo: 'echo' } })] });
`,
);
writeFileSync(
  join(evals, '.llm-evals.config.yml'),
  'request_types: [prompt]\nresults: { display: none }\nfake: { models: [echo] }\n',
);
for (let i = 0; i < cases; i++) {
  const folder = join(evals, 'datasets', `d${i % datasets}`, 'cases', 'v', String(i).padStart(6, '0'));
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'input.txt'), `case ${i}\n`);
  writeFileSync(join(folder, 'expected.json'), JSON.stringify({ n: i }));
}

const env = {
  ...process.env,
  NO_COLOR: '1',
  LLM_EVALS_TEMPORAL_PORT: process.env.LLM_EVALS_TEMPORAL_PORT ?? '7533',
  LLM_EVALS_STATE_DIR: join(dir, 'state'),
  TEMPORAL_ADDRESS: '',
};
const timed = (args: string[]) => {
  const started = Date.now();
  const run = spawnSync('/usr/bin/time', ['-f', 'maxrss_kb=%M', process.execPath, bin, ...args], {
    cwd: dir,
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed:\n${run.stderr.slice(-3000)}`);
  const rss = Number(/maxrss_kb=(\d+)/.exec(run.stderr)?.[1] ?? NaN) / 1024;
  return { seconds: (Date.now() - started) / 1000, rssMb: rss, stdout: run.stdout };
};

spawnSync(process.execPath, [bin, 'server', 'start'], { cwd: dir, env, stdio: 'inherit' });
const start = timed([
  'start',
  '--no-worker',
  '--no-cache',
  '-p',
  String(parallelism),
  '-j',
  String(concurrency),
]);
const runId = start.stdout.trim().split('\n').pop()!;
const worker = timed(['worker', '--until', runId]);
const report = timed(['report', runId, '--format', 'json', '-o', 'report.json']);
const { pid } = JSON.parse(readFileSync(join(dir, 'state', 'server.json'), 'utf8')) as { pid: number };
const serverPeakMb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
spawnSync(process.execPath, [bin, 'server', 'stop'], { cwd: dir, env, stdio: 'inherit' });

console.log(`cases: ${cases} (${datasets} datasets, 1 contender), -p ${parallelism} -j ${concurrency}`);
console.log(
  `start (plan + workflow start): ${start.seconds.toFixed(1)} s, peak ${start.rssMb.toFixed(0)} MB`,
);
console.log(
  `worker (the whole run): ${worker.seconds.toFixed(1)} s, ${(cases / worker.seconds).toFixed(1)} cases/s, peak ${worker.rssMb.toFixed(0)} MB`,
);
console.log(
  `report (fetch every result): ${report.seconds.toFixed(1)} s, peak ${report.rssMb.toFixed(0)} MB`,
);
console.log(`server: peak ${serverPeakMb.toFixed(0)} MB`);
