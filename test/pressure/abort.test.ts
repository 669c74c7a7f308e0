import { afterAll, beforeAll, describe, it } from 'vitest';
import { always, FaultServer, resultsByModel, warmCache } from '../helpers/fault-server.ts';
import { runCli } from '../helpers/cli.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { failure } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';

// S10 (abort_after) and the exit codes through the real CLI. Every scenario has its own server, suite and task queue,
// so they run side by side.

const dirs = new TempDirs();
const servers: FaultServer[] = [];
let cache: string;

beforeAll(async () => {
  cache = await warmCache();
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  dirs.removeAll();
});

/** A fault server where `bad*` models answer 400 to every call and every other model answers right. */
async function badServer() {
  const server = new FaultServer({
    bad: always(failure(400, 'bad request')),
    bad2: always(failure(400, 'bad request')),
  });
  servers.push(server);
  return { server, url: await server.start() };
}

/** Runs `compare` on a suite of `cases` numbered cases and the given lineup text; returns what it printed and saved. */
async function compare(lineup: string, cases: number, args: string[]) {
  const project = providerSuite(dirs, lineup, numberedCases(cases));
  const run = await runCli(['compare', '--display', 'tui', ...args], {
    cwd: project,
    env: cliEnv(cache, {}),
  });
  return { run, project };
}

describe.concurrent('abort_after (S10)', () => {
  it('total: 3 on an endpoint failing every call: stops early, exits 1, reports only what finished', async ({
    expect,
  }) => {
    const { server, url } = await badServer();
    const lineup = `errors: { abort_after: { total: 3 } }\nbroken:\n  base_url: ${url}\n  models: [bad, bad2]\n`;
    const { run, project } = await compare(lineup, 30, ['-j', '0', '-p', '2']);
    expect(run.code, run.stderr).toBe(1);
    const { snapshot } = savedSnapshot(project);
    expect(snapshot.status).toBe('aborted');
    // Every request the server saw is a case that finished (400 is not retried): calls in flight were let finish.
    expect(snapshot.results).toHaveLength(server.hits.length);
    expect(snapshot.results.every((r) => r.status === 'error' && r.score === null)).toBe(true);
    // 60 calls planned; the abort came at the third error, with four calls in flight (2 models × -p 2) and maybe a few
    // started on a worker's half-second-old view of the gate.
    expect(server.hits.length).toBeGreaterThanOrEqual(3);
    expect(server.hits.length, `${server.hits.length} requests`).toBeLessThanOrEqual(12);
    expect(run.stdout).toMatch(/│ pets +│ broken\/bad /);
  }, 90_000);

  it('total: 3, percent: 40: not at the third error (20%), only when the share is reached too', async ({
    expect,
  }) => {
    const { server, url } = await badServer();
    // -j 1 runs `good` (12 right answers) first, then `bad`: its e-th error makes e / (12 + e), 40% from e = 8.
    const lineup = `errors: { abort_after: { total: 3, percent: 40 } }\nmix:\n  base_url: ${url}\n  models: [good, bad]\n`;
    const { run, project } = await compare(lineup, 12, ['-j', '1', '-p', '1']);
    expect(run.code, run.stderr).toBe(1);
    const { snapshot } = savedSnapshot(project);
    expect(snapshot.status).toBe('aborted');
    const results = resultsByModel(snapshot);
    expect(results.get('good')?.filter((r) => r.status === 'scored')).toHaveLength(12);
    const bad = server.of('bad').length;
    expect(bad, `${bad} requests of bad`).toBeGreaterThanOrEqual(8);
    expect(bad, `${bad} requests of bad`).toBeLessThan(12);
    expect(results.get('bad')).toHaveLength(bad);
  }, 90_000);

  it('total: 3, percent: 80 never reached (at most 50%): the run completes, exit 0', async ({ expect }) => {
    const { server, url } = await badServer();
    const lineup = `errors: { abort_after: { total: 3, percent: 80 } }\nmix:\n  base_url: ${url}\n  models: [good, bad]\n`;
    // --allow-failures: a contender whose every call failed would otherwise make the exit 1 (the error summary).
    const { run, project } = await compare(lineup, 12, ['-j', '1', '-p', '1', '--allow-failures']);
    expect(run.code, run.stderr).toBe(0);
    const { snapshot } = savedSnapshot(project);
    expect(snapshot.status).toBe('completed');
    expect(server.of('bad')).toHaveLength(12);
    expect(
      resultsByModel(snapshot)
        .get('bad')
        ?.filter((r) => r.status === 'error'),
    ).toHaveLength(12);
  }, 90_000);

  // The run's result lists only the slices that ran, so an abort before an experiment's second slice saves what finished.
  it("an abort before an experiment's second slice started still saves what finished", async ({ expect }) => {
    const { url } = await badServer();
    const lineup = `errors: { abort_after: { total: 3 } }\nbroken:\n  base_url: ${url}\n  models: [bad]\n`;
    const { run, project } = await compare(lineup, 60, ['-j', '0', '-p', '2']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).not.toContain('workflow not found');
    expect(savedSnapshot(project).snapshot.status).toBe('aborted');
  }, 90_000);
});

// Exit codes (cli.ts): 0 for a completed run and 1 for an aborted one are asserted with the scenarios above (and in
// retries.test.ts and pause.test.ts); here, 2 for a configuration error, found before any call.
describe.concurrent('exit code 2 for a bad lineup', () => {
  it.for<[string, (url: string) => string, string]>([
    [
      'abort_after without total',
      (url) => `errors: { abort_after: { percent: 50 } }\nok:\n  base_url: ${url}\n  models: [good]\n`,
      'errors.abort_after.total',
    ],
    [
      'a rate limit without per_minute',
      (url) => `ok:\n  base_url: ${url}\n  rate_limit: { burst: 5 }\n  models: [good]\n`,
      'ok.rate_limit: a rate_limit needs both burst and per_minute',
    ],
  ])(
    '%s: exit 2 naming the file and the key, no call made',
    { timeout: 30_000 },
    async ([, lineup, key], { expect }) => {
      const { server, url } = await badServer();
      const { run } = await compare(lineup(url), 2, []);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('.llm-evals.config.yml');
      expect(run.stderr).toContain(key);
      expect(server.hits).toEqual([]);
    },
  );
});
