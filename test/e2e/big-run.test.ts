import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PAYLOAD_LIMIT } from '../../src/core/run-input.ts';
import { runCliLong } from '../helpers/cli.ts';
import { reportOf, statusOf } from '../helpers/run-reads.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';

// Any size (issue 29): the start input listed every case's key and hash, and Temporal refused it over 2 MB — near
// 57,000 short keys. The run carries a reference instead, and its list goes to the plan store. The list's size, not
// the count of cases, is what met the wall: 12,000 cases whose keys are 210 characters long (a variant name of 200)
// make a list of 2.8 MB, which the test measures in the plan file. It used 60,000 cases with 40-character keys
// (3.7 MB) and took 135 s of a loaded machine's check, most of it running five times the cases.
const CASES = 12_000;
const VARIANT = `a-variant-with-a-long-name-${'x'.repeat(173)}`;
const dirs = new TempDirs();
// 24,000 files take a while to remove on a loaded machine.
afterAll(() => dirs.removeAll(), 600_000);

function bigSuite(dir: string): void {
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
  for (let i = 0; i < CASES; i++) {
    const folder = join(evals, 'datasets', `d${i % 2}`, 'cases', VARIANT, String(i).padStart(6, '0'));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'input.txt'), `case ${i}\n`);
    writeFileSync(join(folder, 'expected.json'), JSON.stringify({ n: i }));
  }
}

describe('a run past the old wall of the start input', () => {
  it('starts cases whose list is over 2 MB, names the one edited after the start, and finishes every other', async () => {
    const dir = dirs.inRepo('big-run-');
    bigSuite(dir);
    // A state folder of its own, so the plan file read below is this run's.
    const state = dirs.os('big-run-state-');
    const env = {
      TEMPORAL_ADDRESS: temporalAddress(),
      LLM_EVALS_TASK_QUEUE: `big-${randomUUID()}`,
      LLM_EVALS_STATE_DIR: state,
    };
    const started = await runCliLong(['start', '--no-worker', '--no-cache', '-p', '16', '-j', '2'], {
      cwd: dir,
      env,
    });
    expect(started.code, started.stderr).toBe(0);
    const runId = started.stdout.trim().split('\n').pop()!;
    // The list the start input no longer carries: one plan, over the payload limit.
    const plans = readdirSync(join(state, 'plans')).filter((f) => f.endsWith('.json'));
    expect(plans).toHaveLength(1);
    expect(statSync(join(state, 'plans', plans[0]!)).size).toBeGreaterThan(PAYLOAD_LIMIT);
    // Edited between the start and the worker: run against the case it was planned with, never mixed.
    const edited = join(dir, 'evals', 'datasets', 'd1', 'cases', VARIANT, '000007', 'expected.json');
    writeFileSync(edited, JSON.stringify({ n: -7 }));

    const worker = await runCliLong(['worker', '--until', runId], { cwd: dir, env, timeoutMs: 600_000 });
    expect(worker.code, worker.stderr).toBe(0);
    const status = await statusOf(dir, env, runId);
    expect(status).toMatchObject({ state: 'completed', done: CASES, total: CASES });

    const { report } = await reportOf(dir, env, runId);
    const results = report.results as ((typeof report.results)[number] & { error?: string })[];
    const errors = results.filter((r) => r.status === 'error');
    expect(errors.map((r) => [r.caseKey, r.error])).toEqual([
      [`d1/${VARIANT}/000007`, `case d1/${VARIANT}/000007 changed on disk since the run was planned`],
    ]);
    expect(report.results).toHaveLength(CASES);
    expect(new Set(report.results.map((r) => r.caseKey)).size).toBe(CASES);
  }, 900_000);
});
