import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ExpectStatic } from 'vitest';
import { outcomes, type RunReport } from './run-reads.ts';
import { writeTree } from './suite-dir.ts';

// The recording suite: a suite whose provider writes down every call it starts, and what the tests read of that
// record: waiting for calls, auditing a run's calls against a full run's, and D3's check of a run resumed after an
// interruption. Reading the run itself through the CLI is run-reads.ts.

/** The two datasets the recording suite splits its cases across. */
export const RECORDING_DATASETS = ['north', 'south'] as const;

/** The recording suite's models, as the lineup expands them. */
export const RECORDING_MODELS = ['rec/alpha', 'rec/beta'] as const;

/** One provider call as the recording provider wrote it: never the key itself, only its hash. */
export interface RecordedCall {
  pid: number;
  model: string;
  /** The user text, which the EchoAdapter makes the case's expected JSON: `{"id":"<case key>"}`. */
  user: string;
  /** When the call started (ms since the epoch). */
  t: number;
  /** The first 16 hex digits of the SHA-256 of `RECORDING_API_KEY` as the provider saw it, or null when unset. */
  keyHash: string | null;
  /** The seed the call carried (`--repeat`), or null. */
  seed: number | null;
}

/** A recording suite on disk, and ways to read what its provider was asked. */
export interface RecordingSuite {
  /** The suite's project (the parent of `evals/`): where commands run. */
  dir: string;
  /** Every case key, `<dataset>/clear/NNN`, in dataset then case order. */
  caseKeys: string[];
  /** Every (model, case key) pair a full run calls once: `<model> <case key>`. */
  calls: string[];
  /** The calls recorded in `recordFile`, in the order they started. */
  read(recordFile: string): RecordedCall[];
  /** The calls the provider answered (its reply sent back), as `<model> <case key>`, in the order they were answered. */
  answered(recordFile: string): string[];
  /** How often each `<model> <case key>` was called, per {@link read}. */
  countCalls(recordFile: string): Map<string, number>;
}

/** The SHA-256 prefix the recording provider records for a key, so tests can check the worker saw it. */
export function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

// The generated helper: a provider class that records each call as it starts, since a call sent is a call paid
// (O_APPEND lines are atomic at this size), the EchoAdapter, and an exact-match scorer. `rec/beta` answers some
// cases badly, so results mix scores, zeros and reply errors, and comparing a resumed run's results with an
// uninterrupted one's means something.
const HELPER = `import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
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

class RecordingProvider implements Provider {
  readonly name = 'rec';
  readonly requestType = 'prompt';
  readonly requestTypeDescription = 'a chat prompt answered by echoing it, each call recorded';
  readonly prefix = 'rec/';
  readonly direct = false;
  readonly envKeys = ['RECORDING_API_KEY'];
  readonly efforts: string[] = [];

  catalog(): CatalogEntry[] {
    return ['alpha', 'beta'].map((name) => ({ id: 'rec/' + name, inputPrice: 1e-6, outputPrice: 2e-6 }));
  }

  async complete(
    model: ModelSettings & { name: string; id: string },
    request: CompletionRequest,
  ): Promise<ProviderResponse> {
    const key = process.env.RECORDING_API_KEY;
    const line = {
      pid: process.pid,
      model: model.id,
      user: request.user,
      t: Date.now(),
      keyHash: key ? createHash('sha256').update(key).digest('hex').slice(0, 16) : null,
      seed: model.seed ?? null,
    };
    if (process.env.RECORD_FILE) appendFileSync(process.env.RECORD_FILE, JSON.stringify(line) + '\\n');
    let delay = Number(process.env.CALL_DELAY_MS ?? 200);
    // FAIL_ONCE names one call, '<model> <case key>', that answers 503 the first time (in any process) and then
    // takes RETRY_CALL_MS; FAIL_TIMES=N fails it N times (one process at a time), FAIL_MESSAGE says why.
    const expectedId = (JSON.parse(request.user) as { id: string }).id;
    if (process.env.FAIL_ONCE === model.id + ' ' + expectedId) {
      const failed = process.env.RECORD_FILE + '.failed';
      const times = Number(process.env.FAIL_TIMES ?? 1);
      let first = true;
      try {
        if (times > 1) {
          first = (existsSync(failed) ? readFileSync(failed, 'utf8').length : 0) < times;
          if (first) appendFileSync(failed, 'x');
        } else writeFileSync(failed, '', { flag: 'wx' });
      } catch {
        first = false;
      }
      const why = process.env.FAIL_MESSAGE ?? 'overloaded, try again';
      if (first) throw Object.assign(new Error(why), { status: 503 });
      delay = Number(process.env.RETRY_CALL_MS ?? delay);
    }
    await sleep(delay);
    // A call answered is a call paid: RECORD_FILE.answered lists them, as the reply goes back.
    if (process.env.RECORD_FILE) appendFileSync(process.env.RECORD_FILE + '.answered', JSON.stringify(line) + '\\n');
    let text = request.user;
    // WRONG_FILE, read at each call, lists '<model> <case key>' lines answered wrong: a case that flips between runs.
    const wrong = process.env.WRONG_FILE && existsSync(process.env.WRONG_FILE) ? readFileSync(process.env.WRONG_FILE, 'utf8') : '';
    if (wrong.split('\\n').includes(model.id + ' ' + expectedId)) text = JSON.stringify({ id: 'wrong' });
    else if (model.name === 'beta') {
      const expected = JSON.parse(request.user) as { id: string; garble?: boolean; tricky?: boolean };
      if (expected.garble) text = 'no JSON today';
      else if (expected.tricky) text = JSON.stringify({ id: expected.id });
    }
    return { text, usage: { inputTokens: 10, outputTokens: 10, costUsd: 0.00003 } };
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
  name: 'recording',
  root: import.meta.dirname,
  cases: 'datasets/*/cases/**/input.txt',
  adapter: new EchoAdapter(),
  scorer: new ExactScorer(),
  providers: [new RecordingProvider()],
});
`;

const CONFIG = `project: recording
request_types: [prompt]
defaults:
  parallelism: 2
results:
  display: tui
rec:
  models:
    - alpha
    - beta
`;

/**
 * Writes the recording suite into `dir` (a folder under the repository's `tmp/`, so `import 'llm-evals'` resolves):
 * `cases` cases split across two datasets, each expected answer unique (`{"id": "<case key>"}`), two models.
 */
export function writeRecordingSuite(dir: string, cases: number): RecordingSuite {
  const files: Record<string, string> = {
    'evals/eval_helper.ts': HELPER,
    'evals/.llm-evals.config.yml': CONFIG,
  };
  const caseKeys: string[] = [];
  for (let i = 0; i < cases; i++) {
    const dataset = RECORDING_DATASETS[i % RECORDING_DATASETS.length]!;
    const id = `clear/${String(Math.floor(i / RECORDING_DATASETS.length) + 1).padStart(3, '0')}`;
    const key = `${dataset}/${id}`;
    caseKeys.push(key);
    const expected = {
      id: key,
      ...(i % 5 === 3 ? { tricky: true } : {}),
      ...(i % 7 === 5 ? { garble: true } : {}),
    };
    files[`evals/datasets/${dataset}/cases/${id}/input.txt`] = `Case ${key}: say it back.\n`;
    files[`evals/datasets/${dataset}/cases/${id}/expected.json`] = JSON.stringify(expected) + '\n';
  }
  writeTree(dir, files);
  caseKeys.sort();
  const read = (recordFile: string): RecordedCall[] =>
    existsSync(recordFile)
      ? readFileSync(recordFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as RecordedCall)
      : [];
  return {
    dir,
    caseKeys,
    calls: RECORDING_MODELS.flatMap((model) => caseKeys.map((key) => `${model} ${key}`)),
    read,
    answered: (recordFile) =>
      read(`${recordFile}.answered`).map(
        (call) => `${call.model} ${(JSON.parse(call.user) as { id: string }).id}`,
      ),
    countCalls(recordFile) {
      const counts = new Map<string, number>();
      for (const call of read(recordFile)) {
        const name = `${call.model} ${(JSON.parse(call.user) as { id: string }).id}`;
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      return counts;
    },
  };
}

/** The record file a scenario's processes append to, beside the suite (inside its git-ignored folder). */
export function recordFileIn(dir: string, name = 'calls'): string {
  return join(dir, `${name}.jsonl`);
}

/** Resolves once `recordFile` holds `count` calls; rejects when `ended` settles first (the process died), or on time-out. */
export async function waitForCalls(
  recordFile: string,
  count: number,
  ended: Promise<unknown>,
  timeoutMs = 120_000,
): Promise<number> {
  let over = false;
  void ended.then(
    () => (over = true),
    () => (over = true),
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = existsSync(recordFile) ? readFileSync(recordFile, 'utf8').split('\n').length - 1 : 0;
    if (lines >= count) return lines;
    if (over) throw new Error(`the process ended after ${lines} of the ${count} calls awaited`);
    if (Date.now() > deadline) throw new Error(`only ${lines} of ${count} calls in ${timeoutMs} ms`);
    await sleep(10);
  }
}

/** What the record file says about a run interrupted at `interruptedAt`: calls missing, and calls made twice or more. */
export interface CallAudit {
  /** `<model> <case key>` pairs never called. */
  missing: string[];
  /** Pairs called more than once, with each call's start time. */
  repeated: { call: string; times: number[] }[];
  /** Calls beyond one per pair. */
  extra: number;
}

/** Audits a record file against every call a full run makes once. */
export function auditCalls(suite: RecordingSuite, recordFile: string): CallAudit {
  const times = new Map<string, number[]>();
  for (const call of suite.read(recordFile)) {
    const name = `${call.model} ${(JSON.parse(call.user) as { id: string }).id}`;
    times.set(name, [...(times.get(name) ?? []), call.t]);
  }
  const repeated = [...times]
    .filter(([, list]) => list.length > 1)
    .map(([call, list]) => ({ call, times: list.sort((a, b) => a - b) }));
  return {
    missing: suite.calls.filter((call) => !times.has(call)),
    repeated,
    extra: repeated.reduce((n, r) => n + r.times.length - 1, 0),
  };
}

/** How soon a finished case's result is durable in Temporal: the pools report within a quarter second; a second is promised. */
export const DURABLE_WITHIN_MS = 1000;

/**
 * Checks D3 on a run interrupted at `interruptedAt` and then finished: every call made, none twice except the calls in
 * flight at the interruption and those that finished within DURABLE_WITHIN_MS before it (each repeated once), and the
 * final results equal those of an uninterrupted run.
 */
export function expectResumedCleanly(
  expect: ExpectStatic,
  suite: RecordingSuite,
  recordFile: string,
  run: { interruptedAt: number; inFlight: number; callMs: number; report: RunReport; baseline: RunReport },
): CallAudit {
  const audit = auditCalls(suite, recordFile);
  const calls = suite.read(recordFile);
  // A case is durable within DURABLE_WITHIN_MS of finishing: only the calls in flight at the interruption, and those
  // that finished shortly before it, may be paid again.
  const since = run.interruptedAt - run.callMs - DURABLE_WITHIN_MS;
  const recent = calls.filter((c) => c.t >= since && c.t <= run.interruptedAt - run.callMs).length;
  const why = JSON.stringify({ ...audit, interruptedAt: run.interruptedAt, since, recent }, null, 1);
  const before = calls.filter((call) => call.t <= run.interruptedAt).length;
  expect(before, 'every call had started before the interruption').toBeLessThan(suite.calls.length);
  expect(audit.missing, why).toEqual([]);
  expect(audit.extra, why).toBeLessThanOrEqual(run.inFlight + recent);
  for (const { times } of audit.repeated) {
    expect(times, why).toHaveLength(2);
    expect(times[0], why).toBeLessThanOrEqual(run.interruptedAt);
    expect(times[0], why).toBeGreaterThanOrEqual(since);
  }
  expect(run.report.status).toBe('completed');
  expect(run.report.results).toHaveLength(suite.calls.length);
  expect(outcomes(run.report)).toEqual(outcomes(run.baseline));
  return audit;
}
