// What the benches that run the real `llm-evals` on a suite folder of their own share: the environment of a bench's
// own embedded server, the suite's files (helper, lineup, numbered cases), the helpers' common pieces (the
// exact-JSON scorer, the fixed-latency and the recorded fake providers), the command run as a whole process, timed,
// the server around a bench's runs, and the largest history of a run.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Client } from '@temporalio/client';

const repo = resolve(import.meta.dirname, '..');
const bin = join(repo, 'bin', 'llm-evals.mjs');

/**
 * The environment of a bench's own embedded Temporal server: its state under `root`/state, on `port` unless
 * LLM_EVALS_TEMPORAL_PORT says otherwise, never the user's server (TEMPORAL_ADDRESS empty), no colours.
 */
export function benchEnv(root: string, port: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NO_COLOR: '1',
    LLM_EVALS_STATE_DIR: join(root, 'state'),
    LLM_EVALS_TEMPORAL_PORT: process.env.LLM_EVALS_TEMPORAL_PORT ?? port,
    ...extra,
    TEMPORAL_ADDRESS: '',
  };
}

/** A case of a bench suite: its dataset, its id (variant/case, or a bare case) and its files. */
export interface BenchCase {
  dataset: string;
  id: string;
  files: Record<string, string>;
}

/** The benches' usual case `i`: `case i` in, `{ n: i }` expected, in variant `v` of `dataset`, its number `width` wide. */
export function numberedCase(i: number, dataset = 'd', width = 5): BenchCase {
  return {
    dataset,
    id: `v/${String(i).padStart(width, '0')}`,
    files: { 'input.txt': `case ${i}\n`, 'expected.json': JSON.stringify({ n: i }) },
  };
}

/**
 * Writes a suite under `suiteDir`/evals: its helper (none for a lineup that imports its own), its lineup, and `n`
 * cases as `caseOf` makes them.
 */
export function writeBenchSuite(
  suiteDir: string,
  suite: { helper?: string; lineup: string },
  n: number,
  caseOf: (i: number) => BenchCase = numberedCase,
): void {
  const evals = join(suiteDir, 'evals');
  mkdirSync(evals, { recursive: true });
  if (suite.helper !== undefined) writeFileSync(join(evals, 'eval_helper.ts'), suite.helper);
  writeFileSync(join(evals, '.llm-evals.config.yml'), suite.lineup);
  for (let i = 0; i < n; i++) {
    const { dataset, id, files } = caseOf(i);
    const folder = join(evals, 'datasets', dataset, 'cases', id);
    mkdirSync(folder, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  }
}

/** A helper's scorer `Same`: 1 when the reply's JSON is the expected JSON, else 0. */
export const SAME_SCORER = `class Same extends Scorer {
  metrics() { return [{ name: 'exact', description: 'same JSON', primary: true }]; }
  call(kase, reply) { const v = JSON.stringify(kase.expected) === JSON.stringify(reply.output) ? 1 : 0; return { value: v, metrics: { exact: v } }; }
}`;

/**
 * A helper whose one model, `bench/echo`, is bench/fixed-latency.ts's provider answering after `latency` ms (a
 * number, or an expression the helper evaluates), its stats written to BENCH_STATS_FILE when the process exits.
 */
export function fixedLatencyHelper(name: string, latency: string | number): string {
  return `import { defineSuite, EchoAdapter, Scorer } from 'llm-evals';
import { FixedLatencyProvider } from '${join(repo, 'bench', 'fixed-latency.ts')}';
${SAME_SCORER}
const provider = new FixedLatencyProvider(${latency}).writeOnExit(process.env.BENCH_STATS_FILE);
export default defineSuite({ name: '${name}', root: import.meta.dirname, adapter: new EchoAdapter(), scorer: new Same(), providers: [provider] });
`;
}

/**
 * A helper whose models answer through the fake provider, each call appending a line to `record` (`model case`, or
 * `pid model case` with `pid`), so a case paid twice shows; the fake's own list of calls is emptied, so the worker's
 * memory is the engine's, not the fake's record.
 */
export function recordedFakeHelper(
  name: string,
  models: readonly string[],
  record: string,
  pid = false,
): string {
  return `import { appendFileSync } from 'node:fs';
import { defineSuite, EchoAdapter, FakeProvider, Scorer } from 'llm-evals';
${SAME_SCORER}
const fake = new FakeProvider({ models: ${JSON.stringify(Object.fromEntries(models.map((m) => [m, 'echo'])))} });
class Recorded extends EchoAdapter {
  async call(kase, model) {
    const reply = await super.call(kase, model);
    appendFileSync(${JSON.stringify(record)}, ${pid ? "process.pid + ' ' + " : ''}model.id + ' ' + kase.key + '\\n');
    fake.calls.length = 0;
    return reply;
  }
}
export default defineSuite({ name: '${name}', root: import.meta.dirname, adapter: new Recorded(), scorer: new Same(),
  providers: [fake] });
`;
}

/**
 * Writes a toy suite under `suiteDir`: its lineup (the toy adapter and scorer, then `lines`) and `n` cases (dataset
 * `d`, variant `v`): `case i` in, `{animal, name}` out.
 */
export function writeToySuite(suiteDir: string, lines: readonly string[], n: number): void {
  const lineup = [
    `import: ${join(repo, 'examples/toy-suite/lib/toy-suite.ts')}`,
    'adapter: ToyAdapter',
    'scorer: ToyScorer',
    'request_types: [prompt]',
    ...lines,
    '',
  ];
  writeBenchSuite(suiteDir, { lineup: lineup.join('\n') }, n, (i) => ({
    ...numberedCase(i),
    files: {
      'input.txt': `case ${i}\n`,
      'expected.json': JSON.stringify({ animal: 'case', name: `v/${i}` }),
    },
  }));
}

/** Runs `llm-evals args` in `cwd` and times it (`started`: when it was spawned, on this process's clock); throws with the end of its stderr when it does not exit 0. */
export async function runToyCli(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-20_000)));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`llm-evals ${args.join(' ')} exited ${code}:\n${stderr.slice(-4000)}`);
  return { started, seconds, stdout, stderr };
}

/** A command's phase marks (LLM_EVALS_TIMINGS, src/timing.ts) from its stderr: `0.934s cpu 1.147s rss 179 MB started`. */
export function phaseMarks(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('timing '))
    .map((line) => line.replace(/^timing /, '').replace(/ \(.*\)$/, ''));
}

/**
 * Starts the bench's embedded server (a failure is said, not thrown: one may be up already), runs `body`, and stops
 * the server however `body` ends.
 */
export async function withBenchServer<T>(
  cli: (args: string[]) => Promise<unknown>,
  body: () => Promise<T>,
): Promise<T> {
  await cli(['server', 'start']).catch((error: Error) => console.error(error.message));
  try {
    return await body();
  } finally {
    await cli(['server', 'stop']).catch(() => undefined);
  }
}

/** The largest history among a run's workflows, in events and bytes (Temporal warns at 10,240 events and 10 MB). */
export async function largestHistory(
  client: Client,
  runId: string,
): Promise<{ events: number; bytes: number }> {
  let events = 0;
  let bytes = 0;
  for await (const w of client.workflow.list({ query: `LlmEvalsRunId = "${runId}"` })) {
    events = Math.max(events, w.historyLength);
    bytes = Math.max(bytes, w.historySize ?? 0);
  }
  return { events, bytes };
}
