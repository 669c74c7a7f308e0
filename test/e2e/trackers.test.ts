import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliLong, startCli } from '../helpers/cli.ts';
import { CASES, recordingEnv, RUN_FLAGS } from '../helpers/durable.ts';
import { recordFileIn, waitForCalls, writeRecordingSuite } from '../helpers/recording-suite.ts';
import { editFile, TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';
import { BraintrustServer } from '../trackers/braintrust-server.ts';
import { OtlpReceiver, printTree } from '../trackers/otlp-receiver.ts';

// T1–T5 through the real CLI, the way a user runs them: a local OTLP receiver and a Braintrust-compatible server
// on 127.0.0.1 take what a compare sends, on the test's Temporal server.

const dirs = new TempDirs();
const LOGFIRE_TOKEN = 'pylf_v1_us_SECRETlogfire0042';
const OPENROUTER_KEY = 'sk-or-v1-SECRET-never-sent-0042';
const BRAINTRUST_KEY = 'bt-SECRET-key-0042';
const braintrust = new BraintrustServer(BRAINTRUST_KEY);
const receiver = new OtlpReceiver();
let braintrustUrl = '';
let receiverUrl = '';

beforeAll(async () => {
  [braintrustUrl, receiverUrl] = await Promise.all([braintrust.start(), receiver.start()]);
});
afterAll(async () => {
  await Promise.all([braintrust.stop(), receiver.stop()]);
  dirs.removeAll();
});

/** An env with no tracker key of the developer's shell, on the test's Temporal server and a queue of its own. */
function cleanEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { TEMPORAL_ADDRESS: temporalAddress(), OPENROUTER_API_KEY: OPENROUTER_KEY };
  for (const key of ['LOGFIRE_TOKEN', 'BRAINTRUST_API_KEY', 'BRAINTRUST_PROJECT_ID', 'LOGFIRE_BASE_URL']) {
    env[key] = '';
  }
  for (const key of Object.keys(process.env)) if (key.startsWith('OTEL_')) env[key] = '';
  return { ...env, LLM_EVALS_TASK_QUEUE: `trackers-${Math.random().toString(36).slice(2)}`, ...extra };
}

/** A recording suite of CASES cases whose runs send to the test's Braintrust server. */
function braintrustProject(prefix: string) {
  const dir = dirs.inRepo(prefix);
  const suite = writeRecordingSuite(dir, CASES);
  const record = recordFileIn(dir);
  const env = cleanEnv({
    ...recordingEnv(record, 'trackers'),
    BRAINTRUST_API_KEY: BRAINTRUST_KEY,
    BRAINTRUST_API_URL: braintrustUrl,
  });
  return { dir, suite, record, env };
}

const runIdOf = (stderr: string) => /run (\S+) started/.exec(stderr)?.[1] ?? '';

/** The toy suite's cases by dataset: 3 contenders run each, 14 cases and 12 experiments in all. */
const TOY_CASES: Record<string, string[]> = {
  animals: ['clear/001', 'clear/002', 'tricky/001', 'tricky/002'],
  capitals: ['clear/001', 'clear/002', 'tricky/001'],
  colors: ['clear/001', 'clear/002', 'tricky/001', 'tricky/002'],
  weather: ['clear/001', 'clear/002', 'clear/003'],
};
const TOY_EXPERIMENTS = 3 * Object.keys(TOY_CASES).length;
const TOY_RESULTS = 3 * Object.values(TOY_CASES).flat().length;
/** The contenders' provider calls: a call per case, and for the agent's cases a step per tool call and one to answer. */
const TOY_CALLS = 3 * (4 + 3 + 4 + (2 + 3 + 3));

describe('trackers through the CLI', () => {
  it('logfire: the OTLP receiver gets an experiment span per experiment and a case span per case, no key (T1, T2)', async () => {
    const dir = dirs.toySuite();
    const env = cleanEnv({ LOGFIRE_TOKEN, LOGFIRE_BASE_URL: receiverUrl });
    const { code, stderr } = await runCli(['compare', '--no-open', '-v'], { cwd: dir, env });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('tracker logfire: LOGFIRE_TOKEN is set');
    const runId = runIdOf(stderr);
    const experiments = receiver.spans().filter((s) => s.attributes.run_id === runId);
    const traces = new Set(experiments.map((e) => e.traceId));
    const spans = receiver.spans().filter((s) => traces.has(s.traceId));
    expect(experiments).toHaveLength(TOY_EXPERIMENTS);
    for (const e of experiments) {
      const dataset = String(e.attributes.dataset);
      const names = TOY_CASES[dataset]!;
      expect(e.parentSpanId).toBe('');
      expect(e.attributes).toMatchObject({ suite: 'toy', project: 'toy-suite', case_count: names.length });
      const cases = spans.filter((s) => s.parentSpanId === e.spanId);
      expect(cases.map((c) => c.name)).toEqual(names.map((n) => `case ${dataset}/${n}`));
      for (const c of cases) expect(c.attributes).toMatchObject({ dataset: e.attributes.dataset, score: 1 });
    }
    const mine = receiver.exports.filter((x) => x.spans.some((s) => traces.has(s.traceId)));
    for (const x of mine) {
      expect(x.headers.authorization).toBe(LOGFIRE_TOKEN);
      expect(x.body.toString('latin1')).not.toContain(OPENROUTER_KEY);
      expect(x.body.toString('latin1')).not.toContain(LOGFIRE_TOKEN);
    }
    // T1: the local log beside it, one file per experiment.
    expect(readdirSync(join(dir, 'log/llm-evals')).filter((f) => f.endsWith('.json'))).toHaveLength(
      TOY_EXPERIMENTS,
    );
    console.log(
      printTree(spans, (s) => `score=${String(s.attributes.score ?? s.attributes['mean.score'] ?? '')}`),
    );
  }, 120_000);

  it('engine traces: one trace goes from the CLI through each experiment to each provider call', async () => {
    const dir = dirs.toySuite();
    const env = cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiverUrl });
    const { code, stderr } = await runCli(['compare', '--no-open', '--tracker', 'logfire'], {
      cwd: dir,
      env,
    });
    expect(code, stderr).toBe(0);
    const runId = runIdOf(stderr);
    const root = receiver
      .spans()
      .find((s) => s.name === 'llm-evals compare' && s.attributes.run_id === runId)!;
    expect(root.parentSpanId).toBe('');
    const trace = receiver.spans().filter((s) => s.traceId === root.traceId);
    const named = (name: string) => trace.filter((s) => s.name === name);
    const parentName = (s: { parentSpanId: string }) => trace.find((p) => p.spanId === s.parentSpanId)?.name;
    expect(named('workflow compareRun').map(parentName)).toEqual(['llm-evals compare']);
    expect(named('workflow runGate').map(parentName)).toEqual(['llm-evals compare']);
    expect(named('workflow experiment').map(parentName)).toEqual(
      Array(TOY_EXPERIMENTS).fill('workflow compareRun'),
    );
    expect(named('activity track').map(parentName)).toEqual(
      Array(TOY_EXPERIMENTS).fill('workflow compareRun'),
    );
    // The judge's verdicts are calls too, but as many as its cache has not answered yet (identical replies).
    const calls = trace.filter((s) => s.name.startsWith('call fake/') && s.name !== 'call fake/judge');
    expect(calls).toHaveLength(TOY_CALLS);
    for (const call of calls) expect(parentName(call)).toBe('activity runCases');
    expect(
      named('gate')
        .map(parentName)
        .every((n) => n?.startsWith('call fake/')),
    ).toBe(true);
    for (const x of receiver.exports) expect(x.body.toString('latin1')).not.toContain(OPENROUTER_KEY);
    console.log(printTree(trace, () => '').replace(/ $/gm, ''));
  }, 120_000);

  it('braintrust: one experiment, one row per case, and no duplicate after Ctrl-C and resume (T3)', async () => {
    const { dir, suite, record, env } = braintrustProject('bt-resume-');
    const compare = startCli(['compare', ...RUN_FLAGS, '--no-open'], { cwd: dir, env });
    const runId = (await compare.waitFor(/run (\S+) started/))[1]!;
    await waitForCalls(record, Math.ceil(suite.calls.length * 0.6), compare.done);
    compare.child.kill('SIGINT');
    expect((await compare.done).code).toBe(130);
    const resumed = await runCliLong(['resume', runId, '--no-open'], { cwd: dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout + resumed.stderr).toContain(`braintrust: https://www.braintrust.dev/`);
    const experiments = [...braintrust.experiments.values()].filter((e) => e.name === runId);
    expect(experiments).toHaveLength(1);
    const rows = [...experiments[0]!.rows.keys()].sort();
    expect(rows).toHaveLength(suite.calls.length);
    expect(new Set(rows).size).toBe(rows.length);
    for (const id of rows)
      expect(id).toMatch(new RegExp(`^${runId}/\\d{3}-(north|south)/(north|south)/clear/\\d{3}$`));
    const sent = braintrust.requests
      .filter((r) => r.path.includes(`/${experiments[0]!.id}/insert`))
      .flatMap((r) => (JSON.parse(r.body) as { events: { id: string }[] }).events.map((e) => e.id));
    console.log(`${rows.length} rows stored from ${sent.length} sent for run ${runId}`);
    for (const r of braintrust.requests) expect(r.body).not.toContain(OPENROUTER_KEY);
  }, 240_000);

  it('a worker killed while it sends to a tracker: the next worker sends it within seconds, no row twice (T3, D3)', async () => {
    const { dir, suite, env } = braintrustProject('bt-killed-');
    const start = await runCli(['start', '--no-worker', ...RUN_FLAGS, '--project', 'killed-mid-send'], {
      cwd: dir,
      env,
    });
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();
    const sent = braintrust.requests.length;
    braintrust.hold = true;
    try {
      const worker = startCli(['worker'], { cwd: dir, env });
      // Its first experiments done, the worker's track activity is on its way to Braintrust and waits there.
      for (let i = 0; braintrust.waiting === 0; i++) {
        if (i > 600 || worker.child.exitCode !== null) throw new Error('no request reached Braintrust');
        await sleep(100);
      }
      expect(braintrust.requests.slice(sent).every((r) => r.method === 'POST')).toBe(true);
      worker.child.kill('SIGKILL');
      await worker.done;
    } finally {
      braintrust.release();
    }
    // The track that died with it had ten minutes to run; its heartbeats stopping send it to the next worker.
    const finisher = await runCliLong(['worker', '--until', runId], { cwd: dir, env, timeoutMs: 90_000 });
    expect(finisher.code, finisher.stderr).toBe(0);
    const experiment = [...braintrust.experiments.values()].find((e) => e.name === runId)!;
    expect(experiment.rows.size).toBe(suite.calls.length);
    expect(experiment.rows.size).toBe(new Set(experiment.rows.keys()).size);
  }, 240_000);

  it('a tracker answering 500 leaves the compare complete and says so; track RUN sends it later (T3)', async () => {
    const dir = dirs.toySuite();
    const env = cleanEnv({ BRAINTRUST_API_KEY: BRAINTRUST_KEY, BRAINTRUST_API_URL: braintrustUrl });
    braintrust.failWith = 500;
    let first;
    try {
      first = await runCliLong(['compare', '--no-open', '--project', 'down-today'], { cwd: dir, env });
    } finally {
      braintrust.failWith = undefined;
    }
    expect(first.code, first.stderr).toBe(0);
    const runId = runIdOf(first.stderr);
    expect(first.stdout).toMatch(/fake\/parrot/);
    expect(first.stderr).toContain(
      `the braintrust tracker did not record ${TOY_EXPERIMENTS} experiments; the run itself is complete. Send it again with: llm-evals track ${runId}`,
    );
    expect(first.stderr).toContain('answered 500');
    const again = await runCli(['track', runId, '--project', 'down-today'], { cwd: dir, env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(
      `run ${runId}: ${TOY_EXPERIMENTS} of ${TOY_EXPERIMENTS} experiments sent to braintrust and the local log`,
    );
    const experiment = [...braintrust.experiments.values()].find((e) => e.name === runId)!;
    expect(experiment.rows.size).toBe(TOY_RESULTS);
  }, 240_000);

  it('a custom tracker from the helper records every case in order, with its context (T5)', async () => {
    const dir = dirs.toySuite();
    const notes = join(dir, 'notes.jsonl');
    editFile(
      join(dir, 'evals/eval_helper.ts'),
      (text) =>
        text
          .replace(
            "import { defineSuite } from 'llm-evals';",
            "import { appendFileSync } from 'node:fs';\nimport { defineSuite, type TrackerDefinition } from 'llm-evals';",
          )
          .replace(
            '  providers,\n',
            `  providers,
  trackers: [notes()],
`,
          ) +
        `
function notes(): TrackerDefinition {
  return {
    name: 'notes',
    envKey: 'NOTES_KEY',
    packages: [],
    create(context) {
      const write = (line: unknown) => appendFileSync(process.env.NOTES_FILE!, JSON.stringify(line) + '\\n');
      return {
        name: 'notes',
        enabled: () => true,
        start: async (e) => write({ at: 'start', e: e.experimentId, project: context.project, config: context.config }),
        record: async (r) => write({ at: 'record', e: r.experimentId, key: r.caseKey }),
        finish: async (e) => {
          write({ at: 'finish', e: e.experimentId });
          return { url: 'https://notes.example/' + e.runId };
        },
      };
    },
  };
}
`,
    );
    editFile(join(dir, 'evals/.llm-evals.config.yml'), (text) => text + '\nnotes:\n  shelf: top\n');
    const env = cleanEnv({ NOTES_KEY: 'n-1', NOTES_FILE: notes });
    const { code, stderr } = await runCli(['compare', '--no-open', '-v', '-j', '1'], { cwd: dir, env });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('tracker notes: NOTES_KEY is set');
    expect(stderr).toContain(`notes: https://notes.example/${runIdOf(stderr)}`);
    const lines = readFileSync(notes, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { at: string; e: string; key?: string; project?: string });
    const byExperiment = new Map<string, typeof lines>();
    for (const line of lines) byExperiment.set(line.e, [...(byExperiment.get(line.e) ?? []), line]);
    expect(byExperiment.size).toBe(TOY_EXPERIMENTS);
    const recorded = [...byExperiment.values()].map(
      (events) => events.filter((l) => l.at === 'record').length,
    );
    expect(recorded.sort()).toEqual(
      Object.values(TOY_CASES)
        .flatMap((c) => [c.length, c.length, c.length])
        .sort(),
    );
    for (const [, events] of byExperiment) {
      expect(events[0]).toMatchObject({ at: 'start', project: 'toy-suite', config: { shelf: 'top' } });
      expect(events.at(-1)).toMatchObject({ at: 'finish' });
      const keys = events.filter((l) => l.at === 'record').map((l) => l.key!);
      expect(keys).toEqual([...keys].sort());
    }
  }, 120_000);

  it('a chosen tracker whose key is missing fails before any call, naming it', async () => {
    const dir = dirs.toySuite();
    const { code, stderr } = await runCli(['compare', '--tracker', 'braintrust', '--no-open'], {
      cwd: dir,
      env: cleanEnv({}),
    });
    expect(code).toBe(2);
    expect(stderr).toContain('the braintrust tracker needs BRAINTRUST_API_KEY in the environment');
    expect(stderr).not.toContain('started');
  }, 60_000);
});
