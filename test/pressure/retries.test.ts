import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/core/results.ts';
import {
  always,
  FaultServer,
  first,
  gaps,
  resultsByModel,
  warmCache,
  type Rule,
} from '../helpers/fault-server.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { completion, failure } from '../providers/chat-server.ts';
import { cliEnv, providerSuite, rowsByModel, savedSnapshot } from '../providers/cli-suite.ts';

// S8 and S9 through the real CLI: one compare run, one case per model, each model behind a section of its own (a
// section is a vendor, so one model's back-off never closes another's), against a server that injects the faults.

const FAULTS: Record<string, Rule> = {
  'retry-after-2': first(failure(429, 'slow down', { 'retry-after': '2' })),
  'no-retry-after': first(failure(429, 'slow down')),
  'overloaded-503': first(failure(503, 'overloaded')),
  'overloaded-529': first(failure(529, 'overloaded')),
  'broken-500': first(failure(500, 'internal error')),
  reset: first({ drop: true }),
  'down-503': always(failure(503, 'down for good')),
  'retry-after-600': always(failure(429, 'come back in ten minutes', { 'retry-after': '600' })),
  'bad-400': always(failure(400, 'bad request')),
  'auth-401': always(failure(401, 'no auth credentials found')),
  'gone-404': always(failure(404, 'no such model')),
  'not-json': always(completion('Sure! Here is the answer you asked for.')),
};

/** How late past its back-off a retry may arrive: Temporal's timer, the worker's poll, a busy 2-core machine. */
const SLACK = 1.8;

const dirs = new TempDirs();
const server = new FaultServer(FAULTS);
let run: CliResult;
let results: Map<string, CaseResult>;

beforeAll(async () => {
  const url = await server.start();
  const sections = Object.keys(FAULTS)
    .map((model) => `v-${model}:\n  base_url: ${url}\n  models: [${model}]\n`)
    .join('');
  const project = providerSuite(dirs, sections);
  run = await runCli(['compare', '-j', '0', '-c', 'clear/001', '--display', 'tui', '--allow-failures'], {
    cwd: project,
    env: cliEnv(await warmCache(), {}),
  });
  results = new Map([...resultsByModel(savedSnapshot(project).snapshot)].map(([m, [r]]) => [m, r!]));
}, 90_000);

afterAll(async () => {
  await server.stop();
  dirs.removeAll();
});

/** Seconds between the requests for `model`. */
const spacing = (model: string) => gaps(server.of(model));

describe('retries and back-off (S8), measured at the server', () => {
  it('completes the run (exit 0 with --allow-failures: some models never answer) with one result per model', () => {
    expect(run.code, run.stderr).toBe(0);
    expect([...results.keys()].sort()).toEqual(Object.keys(FAULTS).sort());
  });

  it('429 with Retry-After: 2, then success: two requests, the second at least 2 s after the first', () => {
    expect(server.of('retry-after-2').map((h) => h.status)).toEqual([429, 200]);
    const [gap] = spacing('retry-after-2');
    expect(gap).toBeGreaterThanOrEqual(2);
    expect(gap).toBeLessThan(2 + SLACK);
    expect(results.get('retry-after-2')).toMatchObject({ status: 'scored', score: 1, attempts: 2 });
  });

  it('429 without Retry-After: retried after about 1 s', () => {
    expect(server.of('no-retry-after').map((h) => h.status)).toEqual([429, 200]);
    const [gap] = spacing('no-retry-after');
    expect(gap).toBeGreaterThanOrEqual(0.95);
    expect(gap).toBeLessThan(1 + SLACK);
    expect(results.get('no-retry-after')).toMatchObject({ status: 'scored', score: 1 });
  });

  it.each([
    ['overloaded-503', 503],
    ['overloaded-529', 529],
    ['broken-500', 500],
    ['reset', 'drop'],
  ] as const)('%s is retried once, after about 1 s, and the case scores', (model, status) => {
    expect(server.of(model).map((h) => h.status)).toEqual([status, 200]);
    expect(spacing(model)[0]).toBeGreaterThanOrEqual(0.95);
    expect(spacing(model)[0]).toBeLessThan(1 + SLACK);
    expect(results.get(model)).toMatchObject({ status: 'scored', score: 1, attempts: 2 });
  });

  it('a case failing every time: exactly 5 requests, 1, 2, 4 and 8 s apart, then an error with no score', () => {
    const hits = server.of('down-503');
    expect(hits.map((h) => h.status)).toEqual([503, 503, 503, 503, 503]);
    const measured = spacing('down-503');
    [1, 2, 4, 8].forEach((want, i) => {
      expect(measured[i], `gap ${i + 1} of ${JSON.stringify(measured)}`).toBeGreaterThanOrEqual(want - 0.05);
      expect(measured[i], `gap ${i + 1} of ${JSON.stringify(measured)}`).toBeLessThan(want + SLACK);
    });
    expect(results.get('down-503')).toMatchObject({ status: 'error', score: null, metrics: {} });
    expect(results.get('down-503')!.error).toContain('HTTP 503: down for good');
  });

  it('records the five attempts of a case whose retries were spent', () => {
    expect(results.get('down-503')?.attempts).toBe(5);
  });

  it('Retry-After: 600 (over 5 minutes): one request, an error outcome saying why', () => {
    expect(server.of('retry-after-600')).toHaveLength(1);
    expect(results.get('retry-after-600')).toMatchObject({ status: 'error', score: null });
    expect(results.get('retry-after-600')!.error).toContain('asked to wait 600 s, more than 300 s');
  });

  it.each([
    ['bad-400', 400],
    ['auth-401', 401],
    ['gone-404', 404],
  ] as const)('%s: one request, an error outcome with no score', (model, status) => {
    expect(server.of(model)).toHaveLength(1);
    expect(results.get(model)).toMatchObject({ status: 'error', score: null, attempts: 1 });
    expect(results.get(model)!.error).toContain(`(HTTP ${status} is not retried)`);
  });

  it('a reply the adapter cannot parse: one request, a reply error scored 0 and counted as an error', () => {
    expect(server.of('not-json')).toHaveLength(1);
    expect(results.get('not-json')).toMatchObject({ status: 'reply_error', score: 0, attempts: 1 });
    expect(results.get('not-json')!.error).toMatch(/^not JSON: Sure!/);
    expect(rowsByModel(run.stdout)['v-not-json/not-json']?.errors).toBe('1');
  });

  it('counts every failed case in the errors column, and none of the retried ones', () => {
    const rows = rowsByModel(run.stdout);
    for (const model of ['down-503', 'retry-after-600', 'bad-400', 'auth-401', 'gone-404'])
      expect(rows[`v-${model}/${model}`]?.errors, model).toBe('1');
    for (const model of ['retry-after-2', 'no-retry-after', 'overloaded-503', 'reset'])
      expect(rows[`v-${model}/${model}`]?.errors, model).toBe('0');
  });
});
