import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromCache } from '../../src/core/cache-summary.ts';
import type { Snapshot } from '../../src/core/snapshot.ts';
import { runCliLong, type CliResult } from '../helpers/cli.ts';
import { always, FaultServer, first, resultsByModel, warmCache } from '../helpers/fault-server.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { failure } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, providerSuite } from '../providers/cli-suite.ts';

// Issue 44: `resume RUN` never called a run's errored cases again, and said nothing of them. It says how in its
// closing line; `resume RUN --retry-errors` calls them in a new run whose other replies come from the reply cache.

const dirs = new TempDirs();
/** `flaky` refuses its first two requests with a 400, which is not retried: two cases end in an error. */
const server = new FaultServer({
  flaky: first(failure(400, 'bad luck'), failure(400, 'bad luck')),
});
let project: string;
let env: NodeJS.ProcessEnv;
let compare: CliResult;
let original: Snapshot;

/** The snapshots saved in the project, by run id. */
function snapshots(): Map<string, Snapshot> {
  const dir = join(project, 'evals/results');
  const saved = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Snapshot);
  return new Map(saved.map((s) => [s.runId, s]));
}

beforeAll(async () => {
  const url = await server.start();
  project = providerSuite(dirs, `lan:\n  base_url: ${url}\n  models: [steady, flaky]\n`, numberedCases(4));
  env = cliEnv(await warmCache(), { LLM_EVALS_CACHE_DIR: dirs.os('llm-evals-replies-') });
  compare = await runCliLong(['compare', '-j', '0', '--display', 'none'], { cwd: project, env });
  original = [...snapshots().values()][0]!;
}, 240_000);

afterAll(async () => {
  await server.stop();
  dirs.removeAll();
});

describe('resume and the cases that ended in errors', () => {
  it('the first run has two errored cases of flaky and exits 0, as every contender scored', () => {
    expect(compare.code, compare.stderr).toBe(0);
    expect(original.results.filter((r) => r.status === 'error')).toHaveLength(2);
  });

  it('resume RUN calls nothing, exits as compare did, and its closing line offers --retry-errors', async () => {
    const mark = server.hits.length;
    const resumed = await runCliLong(['resume', original.runId, '--display', 'none'], { cwd: project, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(server.hits.length).toBe(mark);
    const lines = resumed.stderr.trim().split('\n');
    expect(lines.at(-1)).toBe(
      `2 cases ended in an error: llm-evals resume ${original.runId} --retry-errors calls them again`,
    );
  }, 240_000);

  it('resume RUN --retry-errors calls only the errored cases again, in a new run with every case', async () => {
    const errored = original.results.filter((r) => r.status === 'error').map((r) => r.caseKey);
    const mark = server.hits.length;
    const retried = await runCliLong(['resume', original.runId, '--retry-errors', '--display', 'none'], {
      cwd: project,
      env,
    });
    expect(retried.code, retried.stderr).toBe(0);
    expect(retried.stderr).toContain(
      `${original.runId}: 2 cases ended in an error; calling them again in a new run, the other replies from the reply cache`,
    );
    // Only flaky's two errored cases reached the provider; every other reply came from the cache.
    const calls = server.hits.slice(mark);
    expect(calls.map((h) => h.model)).toEqual(['flaky', 'flaky']);
    const called = calls.map((h) => (JSON.parse(h.user) as { name: string }).name);
    expect(called.sort()).toEqual([...errored].sort());
    const fresh = [...snapshots().values()].find((s) => s.runId !== original.runId)!;
    expect(fresh.options.retryErrorsOf).toBe(original.runId);
    const byModel = resultsByModel(fresh);
    for (const model of ['steady', 'flaky']) {
      expect(byModel.get(model)).toHaveLength(4);
      expect(byModel.get(model)!.every((r) => r.status === 'scored')).toBe(true);
    }
    expect(fresh.results.filter(fromCache)).toHaveLength(6);
    expect(retried.stderr).not.toContain('--retry-errors calls them again');
  }, 240_000);
});

describe('resume exits as compare does when errors remain', () => {
  const dead = new FaultServer({ dead: always(failure(400, 'no such thing')) });
  afterAll(() => dead.stop());

  it('1 when a contender scored nothing, before and after --retry-errors calls its cases again', async () => {
    const url = await dead.start();
    const lineup = `lan:\n  base_url: ${url}\n  models: [steady, dead]\n`;
    const cwd = providerSuite(dirs, lineup, numberedCases(2));
    const own = cliEnv(await warmCache(), { LLM_EVALS_CACHE_DIR: dirs.os('llm-evals-replies-') });
    const first = await runCliLong(['compare', '-j', '0', '--display', 'none'], { cwd, env: own });
    expect(first.code, first.stderr).toBe(1);
    const runId = firstRunId(cwd);
    const resumed = await runCliLong(['resume', runId, '--display', 'none'], { cwd, env: own });
    expect(resumed.code, resumed.stderr).toBe(1);
    expect(resumed.stderr).toContain('a contender with no scored case: lan/dead');
    const retried = await runCliLong(['resume', runId, '--retry-errors', '--display', 'none'], {
      cwd,
      env: own,
    });
    expect(retried.code, retried.stderr).toBe(1);
    expect(dead.of('dead')).toHaveLength(4);
    expect(dead.of('steady')).toHaveLength(2);
    expect(retried.stderr).toMatch(
      /2 cases ended in an error: llm-evals resume \S+ --retry-errors calls them again\n$/,
    );
    expect(retried.stderr).not.toContain(`resume ${runId} --retry-errors`);
  }, 240_000);
});

/** The run id of the one snapshot saved in `cwd`. */
function firstRunId(cwd: string): string {
  const dir = join(cwd, 'evals/results');
  const [file] = readdirSync(dir).filter((f) => f.endsWith('.json'));
  return (JSON.parse(readFileSync(join(dir, file!), 'utf8')) as Snapshot).runId;
}
