import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.ts';
import { contenderKey, type Contender } from '../../src/core/matrix.ts';
import type { RunInput } from '../../src/core/run-input.ts';
import { countedProgress, serveRun } from '../../src/session/serve.ts';
import type { TemporalLink } from '../../src/client/connect.ts';
import type { RunResult } from '../../src/client/runs.ts';
import type { SuiteWorker } from '../../src/client/worker.ts';

// serveRun draws a run's progress from queries while it waits for the run to close. A query can be held at the
// server (behind its workflow's task, or of a workflow that has just closed): the close must be seen when it comes,
// not once the query gives up. Against a link whose queries never answer, with no Temporal.

const base = { provider: 'fake', id: 'fake/echo', effort: 'default', temperature: null, maxTokens: null };
const contender: Contender = { ...base, key: contenderKey(base), model: 'echo', limits: [] };
const input: RunInput = {
  runId: 'run-1',
  suite: 'toy',
  contenders: [contender],
  experiments: [{ id: '001-animals', contender: 0, dataset: 'animals' }],
  datasets: { animals: [['animals/v/0', 'h0']] },
  parallelism: 1,
  concurrency: 1,
  limits: {},
};
const result = { state: 'completed', experiments: [{ id: '001-animals', cases: 1, errors: 0 }] } as RunResult;

function io(): Io & { text: () => string } {
  let written = '';
  return {
    stdout: { write: () => true },
    stderr: { write: (t: string) => (written += t) },
    cwd: '/nowhere',
    env: {},
    interactive: false,
    text: () => written,
  };
}

/** A query that hangs until the test ends, recorded by name when asked. */
const hang = (queries: string[], name: string) => () => (queries.push(name), new Promise<never>(() => {}));

/** A link whose run closes after `closeMs`; each query it is asked hangs (recorded by name) until the test ends. */
function hangingLink(closeMs: number, queries: string[]) {
  const runs = {
    closed: () => new Promise((resolve) => setTimeout(() => resolve(result), closeMs)),
    progress: hang(queries, 'progress'),
    reachable: hang(queries, 'reachable'),
    follow: () => undefined,
  };
  return { runs } as unknown as TemporalLink;
}

/** A worker that runs what it is given, and whose look at the gate hangs like the link's queries. */
function hangingWorker(queries: string[]) {
  const gate = { state: hang(queries, 'gate') };
  return { runUntil: (until: () => Promise<unknown>) => until(), gate } as unknown as SuiteWorker;
}

describe('serveRun', () => {
  it('sees the run closed at once while a query of its progress is held', async () => {
    const queries: string[] = [];
    const started = Date.now();
    const served = await serveRun(hangingLink(600, queries), hangingWorker(queries), 'run-1', input, io());
    expect(served).toBe('closed');
    expect(Date.now() - started).toBeLessThan(600 + 150);
    // It was waiting on a query when the run closed.
    expect(queries).toEqual(['progress']);
  });

  it('stops at once on a Ctrl-C while a query is held, naming no close', async () => {
    const queries: string[] = [];
    const interrupt = new AbortController();
    const stderr = io();
    setTimeout(() => interrupt.abort(), 500);
    const started = Date.now();
    const served = await serveRun(hangingLink(60_000, queries), hangingWorker(queries), 'run-1', input, {
      ...stderr,
      watchInterrupt: () => interrupt.signal,
    });
    expect(served).toBe('interrupted');
    expect(Date.now() - started).toBeLessThan(500 + 150);
    expect(stderr.text()).toContain('stopping: the calls in flight finish and are recorded first');
  });
});

describe('countedProgress, what `status` shows of a completed run without reading its results', () => {
  const two: RunInput = {
    ...input,
    experiments: [...input.experiments, { id: '002-animals', contender: 0, dataset: 'animals' }],
    datasets: {
      animals: [
        ['animals/v/0', 'h0'],
        ['animals/v/1', 'h1'],
      ],
    },
  };
  const returned = (...experiments: RunResult['experiments']): RunResult => ({ ...result, experiments });

  it.each([
    {
      name: 'every case of both, one an error',
      result: returned(
        { id: '001-animals', cases: 2, errors: 1 },
        { id: '002-animals', cases: 2, errors: 0 },
      ),
      want: [
        { id: '001-animals', total: 2, done: 2, errors: 1, state: 'completed' },
        { id: '002-animals', total: 2, done: 2, errors: 0, state: 'completed' },
      ],
    },
    {
      name: 'an aborted run: one experiment stopped short',
      result: returned(
        { id: '001-animals', cases: 2, errors: 2 },
        { id: '002-animals', cases: 1, errors: 0 },
      ),
      want: [
        { id: '001-animals', total: 2, done: 2, errors: 2, state: 'completed' },
        { id: '002-animals', total: 2, done: 1, errors: 0, state: 'stopped' },
      ],
    },
    {
      name: 'no counts for one experiment: the results are read instead',
      result: returned({ id: '001-animals', cases: 2, errors: 0 }),
      want: undefined,
    },
  ])('$name', ({ result, want }) => {
    expect(countedProgress('run-1', two, result)?.experiments).toEqual(want);
  });
});
