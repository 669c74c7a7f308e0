// A durable run under fire. On an embedded Temporal server of its own (state dir and port under tmp/bench-chaos/), it
// plans a run of N cases with `start --no-worker`, serves it with one `worker --until RUN` at a time, SIGKILLs that
// worker every --kill-every seconds (a fresh one starts after --pause seconds) and, once, SIGKILLs the Temporal server
// and brings it back with `server start` on the same db. The suite's fake provider takes --latency ms per call and
// appends a start and an end line per call to tmp/bench-chaos/calls.jsonl (appendFileSync: a killed process loses
// nothing). When the run is done it reads that file and `report RUN --format json` and prints, per interruption, the
// calls in flight, those finished in the second before, the calls repeated because of it and how long calls stopped;
// then the cases lost (must be 0), the cases called more than once and the totals.
// Exit 0 when the run completed with no case lost, 1 when not, 2 when the bench itself failed or timed out.
// Usage: node --import tsx bench/chaos.ts [cases=2000] [-p 16] [--latency 200] [--datasets 1] [--kill-every 20]
//          [--pause 0] [--server-kill-after 1] [--server-down 0] [--timeout 900]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    parallelism: { type: 'string', short: 'p', default: '16' },
    latency: { type: 'string', default: '200' },
    datasets: { type: 'string', default: '1' },
    'kill-every': { type: 'string', default: '20' },
    pause: { type: 'string', default: '0' },
    'server-kill-after': { type: 'string', default: '1' },
    'server-down': { type: 'string', default: '0' },
    timeout: { type: 'string', default: '900' },
  },
});
const number = (name: string, text: string | undefined, min = 0): number => {
  const n = Number(text);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} takes a number ≥ ${min}, got ${text}`);
  return n;
};
const CASES = Math.floor(number('cases', positionals[0] ?? '2000', 1));
const PARALLELISM = Math.floor(number('-p', opts.parallelism, 1));
const LATENCY_MS = number('--latency', opts.latency);
const DATASETS = Math.floor(number('--datasets', opts.datasets, 1));
const KILL_EVERY_MS = number('--kill-every', opts['kill-every'], 5) * 1000;
const PAUSE_MS = number('--pause', opts.pause) * 1000;
const SERVER_KILL_AFTER = Math.floor(number('--server-kill-after', opts['server-kill-after']));
const SERVER_DOWN_MS = number('--server-down', opts['server-down']) * 1000;
const TIMEOUT_MS = number('--timeout', opts.timeout, 10) * 1000;
/** Calls in flight when every experiment runs at once (`-j` is the number of experiments). */
const TARGET = PARALLELISM * DATASETS;
/** A finished case is durable within this long (the pools report within a quarter second; a second is promised). */
const DURABLE_MS = 1000;

const repo = resolve(import.meta.dirname, '..');
const bin = join(repo, 'bin', 'llm-evals.mjs');
const root = join(repo, 'tmp', 'bench-chaos');
const stateDir = join(root, 'state');
const suiteDir = join(root, 'suite');
const logDir = join(root, 'log');
const recordFile = join(root, 'calls.jsonl');
const began = Date.now();
const since = (t: number) => ((t - began) / 1000).toFixed(1);
const note = (line: string) => process.stderr.write(`[${since(Date.now()).padStart(6)} s] ${line}\n`);

// ---------------------------------------------------------------------------------------------------------------
// The suite: N cases split over the datasets, one model whose provider records every call.

const HELPER = `import { appendFileSync } from 'node:fs';
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
    await sleep(${LATENCY_MS});
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

function writeSuite(): void {
  const evals = join(suiteDir, 'evals');
  mkdirSync(evals, { recursive: true });
  writeFileSync(join(evals, 'eval_helper.ts'), HELPER);
  writeFileSync(
    join(evals, '.llm-evals.config.yml'),
    'request_types: [prompt]\nresults: { display: none }\nrec: { models: [echo] }\n',
  );
  for (let i = 0; i < CASES; i++) {
    const dataset = `d${i % DATASETS}`;
    const id = `v/${String(Math.floor(i / DATASETS)).padStart(5, '0')}`;
    const folder = join(evals, 'datasets', dataset, 'cases', id);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'input.txt'), `case ${i}\n`);
    writeFileSync(join(folder, 'expected.json'), JSON.stringify({ id: `${dataset}/${id}` }));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Processes: every child is tracked, and killed (the server stopped) when this process exits, however it exits.

const children = new Set<ChildProcess>();
let serverMayRun = false;
let env: NodeJS.ProcessEnv = {};

function serverPid(): number | undefined {
  const file = join(stateDir, 'server.json');
  if (!existsSync(file)) return undefined;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a live Temporal server on our db (never signal a reused pid, nor the user's own server). */
function isOurServer(pid: number | undefined): pid is number {
  if (!pid) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(join(stateDir, 'temporal.db'));
  } catch {
    return false;
  }
}

function cleanup(): void {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (!serverMayRun) return;
  serverMayRun = false;
  spawnSync(process.execPath, [bin, 'server', 'stop'], {
    cwd: suiteDir,
    env,
    stdio: 'ignore',
    timeout: 30_000,
  });
  const pid = serverPid();
  if (isOurServer(pid)) process.kill(pid, 'SIGKILL');
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: killing the worker and stopping the server this bench started\n`);
    process.exit(130);
  });
}

/** Stops the bench: says why on stderr and where to look, and exits (the exit handler kills what we started). */
function fail(message: string, code = 2): never {
  process.stderr.write(
    `\nchaos bench: ${message}\n  logs: ${logDir} (workers), ${join(stateDir, 'server.log')}, ${join(suiteDir, 'log')}\n`,
  );
  process.exit(code);
}

/** Runs `llm-evals ...args` in the suite to its end (SIGKILLed after `timeoutMs`). */
function cli(
  args: string[],
  timeoutMs = 120_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: suiteDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs / 1000} s)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      done({ code, stdout, stderr });
    });
  });
}

interface Worker {
  index: number;
  child: ChildProcess;
  pid: number;
  spawnedAt: number;
  log: string;
  killedAt?: number;
  exited?: { at: number; code: number | null; signal: NodeJS.Signals | null };
}
const workers: Worker[] = [];

function spawnWorker(runId: string): Worker {
  const index = workers.length + 1;
  const log = join(logDir, `worker-${index}.log`);
  const out = openSync(log, 'a');
  const child = spawn(process.execPath, [bin, 'worker', '--until', runId], {
    cwd: suiteDir,
    env,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  children.add(child);
  const worker: Worker = { index, child, pid: child.pid ?? 0, spawnedAt: Date.now(), log };
  child.on('exit', (code, signal) => {
    worker.exited = { at: Date.now(), code, signal };
    children.delete(child);
  });
  workers.push(worker);
  note(`worker #${index} started (pid ${worker.pid}, log ${log})`);
  return worker;
}

async function killWorker(worker: Worker): Promise<void> {
  worker.killedAt = Date.now();
  worker.child.kill('SIGKILL');
  while (!worker.exited) await sleep(10);
}

function tail(file: string, lines = 15): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** A free port P on 127.0.0.1 with P + 1000 (the UI) free too. */
async function freePort(): Promise<number> {
  const listen = (port: number) =>
    new Promise<number | undefined>((done) => {
      const probe = createServer();
      probe.once('error', () => done(undefined));
      probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
        const address = probe.address();
        probe.close(() => done(typeof address === 'object' && address ? address.port : undefined));
      });
    });
  for (let i = 0; i < 50; i++) {
    const port = await listen(0);
    if (port && port + 1000 <= 65535 && (await listen(port + 1000))) return port;
  }
  throw new Error('no free port P with P + 1000 free on 127.0.0.1');
}

// ---------------------------------------------------------------------------------------------------------------
// The recording, read as it grows.

interface Call {
  case: string;
  pid: number;
  start: number;
  /** When it returned; for a call of a killed worker that never returned, when the worker was killed. */
  end?: number;
  /** True when the end is the worker's death, not the call's return. */
  cut?: boolean;
}

class Recording {
  readonly calls: Call[] = [];
  private readonly open = new Map<string, Call>();
  private offset = 0;
  private rest = '';
  private readonly firstStart = new Map<number, number>();

  poll(): void {
    if (!existsSync(recordFile)) return;
    const fd = openSync(recordFile, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size <= this.offset) return;
      const buffer = Buffer.alloc(size - this.offset);
      readSync(fd, buffer, 0, buffer.length, this.offset);
      this.offset = size;
      const lines = (this.rest + buffer.toString('utf8')).split('\n');
      this.rest = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        const entry = JSON.parse(line) as { case?: string; pid: number; n: number; t: number; end?: boolean };
        const id = `${entry.pid}:${entry.n}`;
        if (entry.end) {
          const call = this.open.get(id);
          if (call) call.end = entry.t;
          this.open.delete(id);
        } else {
          const call: Call = { case: entry.case!, pid: entry.pid, start: entry.t };
          this.calls.push(call);
          if (!this.firstStart.has(call.pid)) this.firstStart.set(call.pid, call.start);
          this.open.set(id, call);
        }
      }
    } finally {
      closeSync(fd);
    }
  }

  /** The calls of `pid` still open end when it was killed. */
  cut(pid: number, at: number): number {
    let n = 0;
    for (const [id, call] of this.open) {
      if (call.pid !== pid) continue;
      call.end = at;
      call.cut = true;
      this.open.delete(id);
      n++;
    }
    return n;
  }

  inFlight(): number {
    return this.open.size;
  }

  /** When `pid` started its first call (Infinity before it has). */
  firstStartOf(pid: number): number {
    return this.firstStart.get(pid) ?? Infinity;
  }

  lastStart(): number {
    return this.calls.at(-1)?.start ?? 0;
  }

  distinct(): number {
    return new Set(this.calls.map((c) => c.case)).size;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The run.

interface Interruption {
  what: string;
  at: number;
  /** Until the fresh worker was started, or the server answered again. */
  backAt: number;
}

interface RunReport {
  runId: string;
  status: string;
  contenders: { key: string; id: string }[];
  experiments: { id: string; contender: string; dataset: string; caseKeys: string[] }[];
  results: { experimentId: string; caseKey: string; status: string }[];
}

async function main(): Promise<number> {
  // A server left by an earlier bench that was killed too hard to clean up goes first.
  note(`writing a suite of ${CASES} cases in ${suiteDir}`);
  const stale = serverPid();
  if (isOurServer(stale)) process.kill(stale, 'SIGKILL');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  env = {
    ...process.env,
    NO_COLOR: '1',
    TEMPORAL_ADDRESS: '',
    LLM_EVALS_STATE_DIR: stateDir,
    LLM_EVALS_TEMPORAL_PORT: process.env.LLM_EVALS_TEMPORAL_PORT || String(await freePort()),
    LLM_EVALS_TASK_QUEUE: `bench-chaos-${randomUUID().slice(0, 8)}`,
  };
  delete env.FORCE_COLOR;
  delete env.LLM_EVALS_HELPER;
  writeSuite();
  note(
    `${CASES} cases in ${DATASETS} experiment(s), -p ${PARALLELISM}, ${LATENCY_MS} ms per call; ` +
      `worker SIGKILLed every ${KILL_EVERY_MS / 1000} s, the server once after ${SERVER_KILL_AFTER} worker kill(s)`,
  );

  serverMayRun = true;
  const server = await cli(['server', 'start']);
  if (server.code !== 0) fail(`server start exited ${server.code}:\n${server.stderr}`);
  note(`server ${server.stdout.trim()}`);
  const startedAt = Date.now();
  const start = await cli([
    'start',
    '--no-worker',
    '--no-cache',
    '-p',
    String(PARALLELISM),
    '-j',
    String(DATASETS),
  ]);
  if (start.code !== 0) fail(`start exited ${start.code}:\n${start.stderr}`);
  const runId = start.stdout.trim().split('\n').pop()!;
  note(`run ${runId} planned (${((Date.now() - startedAt) / 1000).toFixed(1)} s)`);

  const recording = new Recording();
  const interruptions: Interruption[] = [];
  const anomalies: string[] = [];
  let workerKills = 0;
  let serverKilled = false;
  let serverBackAt = 0;
  let worker = spawnWorker(runId);
  let lastProgress = Date.now();
  const deadline = began + TIMEOUT_MS;

  for (;;) {
    await sleep(100);
    recording.poll();
    const now = Date.now();
    if (now > deadline) {
      fail(
        `timed out after ${TIMEOUT_MS / 1000} s: run ${runId} not complete; ${recording.distinct()} of ${CASES} ` +
          `cases called (${recording.calls.length} calls), worker #${worker.index} (pid ${worker.pid}) ` +
          `${worker.exited ? 'gone' : 'running'}`,
      );
    }
    if (worker.exited) {
      // It left on its own: the run closed, or something went wrong.
      const { code, signal } = worker.exited;
      recording.poll();
      recording.cut(worker.pid, worker.exited.at);
      const status = await cli(['status', runId, '--json']);
      const state = (() => {
        try {
          return (JSON.parse(status.stdout) as { state: string }).state;
        } catch {
          return `unknown (status exited ${status.code}: ${status.stderr.trim().split('\n').at(-1)})`;
        }
      })();
      if (code === 0 && state === 'completed') {
        note(`worker #${worker.index} left: run ${runId} completed`);
        break;
      }
      const what = `worker #${worker.index} (pid ${worker.pid}) exited by itself at ${since(worker.exited.at)} s (code ${code}, signal ${signal}) while the run was ${state}`;
      anomalies.push(what);
      note(`${what}; log tail:\n${tail(worker.log)}`);
      if (anomalies.length > 5) fail(`too many workers left by themselves; the last: ${what}`);
      worker = spawnWorker(runId);
      continue;
    }
    // Every KILL_EVERY_MS, but never sooner than half that after the server came back, so that each interruption's
    // repeats and recovery are its own.
    if (now >= Math.max(worker.spawnedAt + KILL_EVERY_MS, serverBackAt + KILL_EVERY_MS / 2)) {
      const old = worker;
      await killWorker(old);
      workerKills++;
      recording.poll();
      const cut = recording.cut(old.pid, old.killedAt!);
      note(`SIGKILL worker #${old.index} (pid ${old.pid}): ${cut} call(s) in flight`);
      if (PAUSE_MS) await sleep(PAUSE_MS);
      worker = spawnWorker(runId);
      interruptions.push({ what: `worker #${old.index}`, at: old.killedAt!, backAt: worker.spawnedAt });
      continue;
    }
    // Once, after SERVER_KILL_AFTER worker kills, when the current worker has been calling for a second.
    if (
      !serverKilled &&
      workerKills >= SERVER_KILL_AFTER &&
      recording.firstStartOf(worker.pid) <= now - 1000 &&
      recording.lastStart() >= now - 300
    ) {
      const pid = serverPid();
      if (!isOurServer(pid)) fail(`no server of ours to kill (server.json says pid ${pid})`);
      serverKilled = true;
      const at = Date.now();
      process.kill(pid, 'SIGKILL');
      note(`SIGKILL server (pid ${pid}): ${recording.inFlight()} call(s) in flight`);
      while (isOurServer(pid)) await sleep(10);
      if (SERVER_DOWN_MS) await sleep(SERVER_DOWN_MS);
      const again = await cli(['server', 'start']);
      if (again.code !== 0) fail(`server start after the kill exited ${again.code}:\n${again.stderr}`);
      serverBackAt = Date.now();
      note(`server ${again.stdout.trim()} after ${((serverBackAt - at) / 1000).toFixed(1)} s`);
      interruptions.push({ what: 'server', at, backAt: serverBackAt });
      continue;
    }
    if (now - lastProgress >= 5000) {
      lastProgress = now;
      note(
        `${recording.distinct()}/${CASES} cases called (${recording.calls.length} calls), ` +
          `${recording.inFlight()} in flight; worker #${worker.index} up ${((now - worker.spawnedAt) / 1000).toFixed(1)} s`,
      );
    }
  }
  const finishedAt = Date.now();
  await sleep(200);
  recording.poll();
  if (!serverKilled) anomalies.push('the server was never killed: the run finished first');

  // To a file: a JSON report of this size piped to stdout comes out cut at a multiple of 64 KiB.
  const reportFile = join(root, 'report.json');
  const reported = await cli(['report', runId, '--format', 'json', '-o', reportFile], 300_000);
  if (reported.code !== 0) fail(`report ${runId} exited ${reported.code}:\n${reported.stderr}`);
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as RunReport;
  const stopped = await cli(['server', 'stop']);
  if (stopped.code === 0) serverMayRun = false;

  return printResults(runId, report, recording, interruptions, anomalies, startedAt, finishedAt);
}

// ---------------------------------------------------------------------------------------------------------------
// The audit.

function table(head: string[], rows: string[][], left = 1): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [head, ...rows]
    .map((row) =>
      row.map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
    )
    .join('\n');
}

function printResults(
  runId: string,
  report: RunReport,
  recording: Recording,
  interruptions: Interruption[],
  anomalies: string[],
  startedAt: number,
  finishedAt: number,
): number {
  const at = (t: number) => ((t - startedAt) / 1000).toFixed(1);
  const calls = recording.calls;
  const modelOf = new Map(report.contenders.map((c) => [c.key, c.id]));
  const planned = report.experiments.flatMap((e) =>
    e.caseKeys.map((k) => `${modelOf.get(e.contender)} ${k}`),
  );
  const modelOfExperiment = new Map(report.experiments.map((e) => [e.id, modelOf.get(e.contender)]));
  const resulted = new Map<string, number>();
  for (const r of report.results) {
    const name = `${modelOfExperiment.get(r.experimentId)} ${r.caseKey}`;
    resulted.set(name, (resulted.get(name) ?? 0) + 1);
  }
  const lost = planned.filter((p) => !resulted.has(p));
  const doubleResults = [...resulted.values()].filter((n) => n > 1).length;
  const statuses = new Map<string, number>();
  for (const r of report.results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);

  const byCase = new Map<string, Call[]>();
  for (const call of calls) byCase.set(call.case, [...(byCase.get(call.case) ?? []), call]);
  const neverCalled = planned.filter((p) => !byCase.has(p)).length;
  const repeatedCases = [...byCase.values()].filter((list) => list.length > 1);

  // A call cut by its worker's death ends at the kill, and was running at it.
  const runningAt = (c: Call, t: number) =>
    c.end === undefined || c.end > t || (c.cut === true && c.end === t);
  // Each repeat is charged to the first interruption after the call it repeats had started: that call was in flight
  // then, had finished within DURABLE_MS before it (not yet durable), or had finished earlier (it should have been).
  const rows = interruptions.map(() => ({ flight: 0, recent: 0, older: 0 }));
  let unexplained = 0;
  for (const list of repeatedCases) {
    list.sort((a, b) => a.start - b.start);
    for (let k = 1; k < list.length; k++) {
      const prev = list[k - 1]!;
      const i = interruptions.findIndex((x) => x.at >= prev.start);
      if (i < 0 || list[k]!.start < interruptions[i]!.at) {
        unexplained++;
        continue;
      }
      const at = interruptions[i]!.at;
      if (runningAt(prev, at)) rows[i]!.flight++;
      else if ((prev.end ?? 0) > at - DURABLE_MS) rows[i]!.recent++;
      else rows[i]!.older++;
    }
  }
  const lastEnd = Math.max(...calls.map((c) => c.end ?? c.start));
  const firstStart = calls[0]?.start ?? 0;
  const starts = calls.map((c) => c.start).sort((a, b) => a - b);
  const interruptionRows = interruptions.map((x, i) => {
    const inFlight = calls.filter((c) => c.start <= x.at && runningAt(c, x.at)).length;
    const recent = calls.filter(
      (c) => c.end !== undefined && !c.cut && c.end <= x.at && c.end > x.at - DURABLE_MS,
    ).length;
    const next = starts.find((t) => t > x.at);
    // The longest stretch without a new call, from the kill to the next interruption (or the end of the run).
    const until = interruptions[i + 1]?.at ?? lastEnd;
    let gap = 0;
    let previous = x.at;
    for (const t of starts) {
      if (t <= x.at || t > until) continue;
      gap = Math.max(gap, t - previous);
      previous = t;
    }
    gap = Math.max(gap, until - previous);
    const r = rows[i]!;
    const repeated = r.flight + r.recent + r.older;
    const excess = Math.max(0, repeated - inFlight - recent);
    if (excess)
      anomalies.push(`interruption ${i + 1}: ${excess} call(s) repeated beyond in flight + done <1s`);
    if (r.older)
      anomalies.push(`interruption ${i + 1}: ${r.older} call(s) repeated that had returned over 1 s before`);
    return [
      `${i + 1}. SIGKILL ${x.what}`,
      at(x.at),
      String(inFlight),
      String(recent),
      String(repeated),
      `${r.flight}/${r.recent}/${r.older}`,
      excess ? `${excess} ⚠` : '0',
      ((x.backAt - x.at) / 1000).toFixed(1),
      next === undefined ? '-' : ((next - x.at) / 1000).toFixed(1),
      (gap / 1000).toFixed(1),
    ];
  });

  const out: string[] = [];
  out.push(
    `chaos bench: run ${runId}, ${CASES} cases in ${report.experiments.length} experiment(s), -p ${PARALLELISM}, ` +
      `${LATENCY_MS} ms per call, worker SIGKILLed every ${KILL_EVERY_MS / 1000} s, server SIGKILLed once`,
    '',
  );
  out.push(
    table(
      [
        'interruption',
        'at s',
        'in flight',
        'done <1s',
        'repeated',
        'flight/<1s/older',
        'excess',
        'down s',
        'next call s',
        'max gap s',
      ],
      interruptionRows,
    ),
  );
  out.push(
    '',
    '  at s: since `start --no-worker`; in flight: calls started and not returned at the kill; done <1s: calls returned in',
    '  the second before it; repeated: calls made again because of it (the repeated call was in flight / done <1s /',
    '  done earlier); excess: repeats beyond in flight + done <1s; down s: until a fresh worker was started or the',
    '  server answered again; next call s: until the next call started; max gap s: the longest time with no new call',
    '  before the next interruption.',
    '',
  );
  const workerRows = workers.map((w) => {
    const mine = calls.filter((c) => c.pid === w.pid);
    const ended = w.killedAt
      ? `SIGKILL at ${at(w.killedAt)}`
      : w.exited
        ? `exit ${w.exited.code ?? w.exited.signal} at ${at(w.exited.at)}`
        : 'running';
    return [
      `#${w.index}`,
      String(w.pid),
      at(w.spawnedAt),
      mine[0] ? ((mine[0].start - w.spawnedAt) / 1000).toFixed(1) : '-',
      String(mine.length),
      ended,
    ];
  });
  out.push(table(['worker', 'pid', 'started s', 'first call after s', 'calls', 'ended'], workerRows, 2), '');
  const wall = (finishedAt - startedAt) / 1000;
  const span = (lastEnd - firstStart) / 1000;
  const ideal = (CASES * LATENCY_MS) / TARGET / 1000;
  const totals: [string, string][] = [
    ['run status (report)', report.status],
    ['cases planned', String(planned.length)],
    [
      'results in report',
      `${report.results.length} (${[...statuses].map(([s, n]) => `${s} ${n}`).join(', ')})`,
    ],
    [
      'cases lost (no result)',
      String(lost.length) + (lost.length ? ` ⚠ e.g. ${lost.slice(0, 5).join(', ')}` : ''),
    ],
    ['cases with two results', String(doubleResults)],
    ['calls made', String(calls.length)],
    ['cases called', `${byCase.size} (never called: ${neverCalled})`],
    [
      'cases called more than once',
      `${repeatedCases.length} (${calls.length - byCase.size} extra calls, at most ${Math.max(1, ...repeatedCases.map((l) => l.length))} calls per case)`,
    ],
    ['repeats with no interruption', String(unexplained) + (unexplained ? ' ⚠' : '')],
    [
      'interruptions',
      `${interruptions.length} (${interruptions.filter((x) => x.what === 'server').length} server)`,
    ],
    ['workers started', String(workers.length)],
    ['wall time', `${wall.toFixed(1)} s (start --no-worker to the last worker's exit)`],
    ['first call to last', `${span.toFixed(1)} s (no kills, at full speed: ${ideal.toFixed(1)} s)`],
    [
      'cases/s',
      `${(CASES / wall).toFixed(1)} over the wall time, ${(CASES / span).toFixed(1)} first call to last`,
    ],
    ['calls per case', (calls.length / CASES).toFixed(3)],
  ];
  const width = Math.max(...totals.map(([k]) => k.length));
  for (const [k, v] of totals) out.push(`${k.padEnd(width)}  ${v}`);
  for (const a of anomalies) out.push(`⚠ ${a}`);
  const ok = report.status === 'completed' && lost.length === 0;
  out.push(
    '',
    ok
      ? 'OK: the run completed and no case was lost'
      : 'FAILED: the run did not complete, or cases were lost',
  );
  console.log(out.join('\n'));
  process.stderr.write(
    `record: ${recordFile}; logs: ${logDir}, ${join(stateDir, 'server.log')}, ${join(suiteDir, 'log')}\n`,
  );
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => fail(error instanceof Error ? (error.stack ?? error.message) : String(error)),
);
