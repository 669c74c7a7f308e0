import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type Connection } from '@temporalio/client';
import { ClosableConnection } from '../../src/client/closable-connection.ts';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { GateState } from '../../src/core/coordinator.ts';
import { gateWorkflowId } from '../../src/core/run-input.ts';
import { gateQuery } from '../../workflows/messages.ts';
import { always, FaultServer, warmCache } from '../helpers/fault-server.ts';
import { runCli, startCli, type CliProcess } from '../helpers/cli.ts';
import { reportOf, statusOf } from '../helpers/run-reads.ts';
import { TempDirs } from '../helpers/suite-dir.ts';
import { temporalAddress } from '../helpers/temporal.ts';
import { failure } from '../providers/chat-server.ts';
import { cliEnv, numberedCases, providerSuite, savedSnapshot } from '../providers/cli-suite.ts';

// S11 through the real CLI, with no abort_after: an endpoint answering 400 to every call (one request per case, so
// the server's count is the count of failed cases), two models over several datasets, so the pause names "all of
// them". When the 100th failure pauses the run the calls under way finish, and nothing new starts after them.

const P = 4;
/** Calls that may start on a worker's half-second-old view of the gate after it paused, besides those in flight. */
const LATE = 10;
const PAUSED = /paused: (\d+) calls failed in a row; nothing new starts\./;

const dirs = new TempDirs();
const servers: FaultServer[] = [];
const processes: CliProcess[] = [];
const links: Connection[] = [];
let cache: string;
let pausedStateIs: (state: string) => void = () => undefined;
/** What `status --json` said of the run paused in the worker scenario. */
const pausedState = new Promise<string>((resolve) => (pausedStateIs = resolve));

beforeAll(async () => {
  cache = await warmCache();
});

afterAll(async () => {
  await Promise.all(links.map((c) => c.close()));
  for (const p of processes) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await Promise.all(servers.map((s) => s.stop()));
  dirs.removeAll();
});

/**
 * A suite of `perDataset` cases in each of `datasets`, two models whose every call fails with 400, a server of its
 * own. At most 50 cases per dataset, so each experiment is one slice and `-j 0` starts them all.
 */
async function failingSuite(datasets: string[], perDataset: number) {
  const server = new FaultServer({
    bad: always(failure(400, 'bad request')),
    worse: always(failure(400, 'bad request')),
  });
  servers.push(server);
  const url = await server.start();
  const lineup = `broken:\n  base_url: ${url}\n  models: [bad, worse]\n`;
  const project = providerSuite(dirs, lineup, numberedCases(perDataset * datasets.length, datasets));
  const calls = 2 * datasets.length * perDataset;
  /** The most calls that may still arrive after the one that made the 100th failure. */
  const overshoot = 2 * datasets.length * P + LATE;
  return { server, project, env: cliEnv(cache, {}), calls, overshoot };
}

/** Starts the CLI in `project`, killed after 200 s; `afterAll` kills it if the test failed first. */
function spawnCli(args: string[], project: string, env: NodeJS.ProcessEnv): CliProcess {
  const cli = startCli(args, { cwd: project, env, timeoutMs: 200_000 });
  processes.push(cli);
  return cli;
}

/**
 * A run's gate, watched through Temporal: the CLI cannot show a pause from another shell yet (see the `status` test
 * below), so the test reads the gate's own query to know when to answer.
 */
async function gateOf(runId: string) {
  const connection = await ClosableConnection.connect({ address: temporalAddress() });
  links.push(connection);
  const gate = new Client({ connection }).workflow.getHandle(gateWorkflowId(runId));
  return {
    /** Resolves once the gate is in `want` (polled twice a second); rejects after 200 s. */
    async reaches(want: GateState['state']): Promise<void> {
      const deadline = Date.now() + 200_000;
      for (;;) {
        const state = await gate.query(gateQuery).then(
          (g) => g.state,
          () => 'unknown',
        );
        if (state === want) return;
        if (Date.now() > deadline) throw new Error(`run ${runId} not ${want} in 200 s: ${state}`);
        await sleep(500);
      }
    },
  };
}

/** The pause message, line by line. */
const PAUSE_LINES = [
  PAUSED,
  /^ {2}error: broken broken\/bad: HTTP 400: bad request \(HTTP 400 is not retried\)$/m,
  /^ {2}error: broken broken\/worse: HTTP 400: bad request \(HTTP 400 is not retried\)$/m,
  /^ {2}models: all of them$/m,
  /^ {2}datasets: all of them$/m,
  /^ {2}cases: (north|south)\/bulk\/\d{3}, /m,
];

describe.concurrent('100 failures in a row pause the run (S11)', () => {
  it('without a terminal and without --yes: shows the pause, stops, exits 1, reports what finished', async ({
    expect,
  }) => {
    const { server, project, env, calls, overshoot } = await failingSuite(['north', 'south'], 30);
    const run = await spawnCli(['compare', '-j', '0', '-p', String(P), '--display', 'tui'], project, env)
      .done;
    expect(run.code, run.stderr).toBe(1);
    for (const line of PAUSE_LINES) expect(run.stderr).toMatch(line);
    expect(run.stderr).toContain('stopping: no terminal to ask and no --yes');
    expect(Number(run.stderr.match(PAUSED)![1])).toBeGreaterThanOrEqual(100);
    // Of the 120 calls planned, only the 100 that paused the run and those then under way were made.
    expect(server.hits.length).toBeGreaterThanOrEqual(100);
    expect(server.hits.length).toBeLessThanOrEqual(Math.min(calls - 1, 100 + overshoot));
    const { snapshot } = savedSnapshot(project);
    expect(snapshot.status).toBe('aborted');
    expect(snapshot.results).toHaveLength(server.hits.length);
    expect(snapshot.results.every((r) => r.status === 'error' && r.score === null)).toBe(true);
  }, 210_000);

  it('with --yes: shows the same and goes on, pausing again 100 failures later', async ({ expect }) => {
    const { server, project, env, calls, overshoot } = await failingSuite(['north', 'south'], 62);
    const cli = spawnCli(
      ['compare', '-j', '0', '-p', String(P), '--display', 'none', '--yes', '--allow-failures'],
      project,
      env,
    );
    // The requests the server had seen when each pause was shown (the CLI answers it right after).
    await cli.waitFor(PAUSED, 200_000);
    const first = server.hits.length;
    await cli.waitFor(new RegExp(`${PAUSED.source}[\\s\\S]*${PAUSED.source}`), 200_000);
    const second = server.hits.length;
    const run = await cli.done;
    expect(run.code, run.stderr).toBe(0);
    for (const line of PAUSE_LINES) expect(run.stderr).toMatch(line);
    expect(run.stderr.match(/going on \(--yes\)/g)).toHaveLength(2);
    const streaks = [...run.stderr.matchAll(new RegExp(PAUSED, 'g'))].map((m) => Number(m[1]));
    expect(streaks[0]).toBeGreaterThanOrEqual(100);
    expect(streaks[1]! - streaks[0]!).toBeGreaterThanOrEqual(100);
    expect(streaks[1]! - streaks[0]!).toBeLessThanOrEqual(100 + overshoot);
    const counts = `requests at the pauses: ${first}, ${second}`;
    expect(first, counts).toBeGreaterThanOrEqual(100);
    expect(first, counts).toBeLessThanOrEqual(100 + overshoot);
    expect(second - first, counts).toBeGreaterThanOrEqual(100 - overshoot);
    expect(second - first, counts).toBeLessThanOrEqual(100 + overshoot);
    // It went on after both: every planned call was made, once.
    expect(new Set(server.hits.map((h) => `${h.model} ${h.user}`)).size).toBe(calls);
    expect(server.hits).toHaveLength(calls);
    const { snapshot } = savedSnapshot(project);
    expect(snapshot.status).toBe('completed');
    expect(snapshot.results).toHaveLength(calls);
  }, 210_000);

  it('a run served by `worker`: `continue` and `stop` answer its pauses from other processes', async ({
    expect,
  }) => {
    const { server, project, env, calls, overshoot } = await failingSuite(['north', 'south', 'east'], 42);
    const cli = (args: string[]) => runCli(args, { cwd: project, env });
    const start = await cli(['start', '--no-worker', '-j', '0', '-p', String(P)]);
    expect(start.code, start.stderr).toBe(0);
    const runId = start.stdout.trim();
    const worker = spawnCli(['worker', '--until', runId], project, env);
    void worker.done.then(() => pausedStateIs('the worker ended before the pause'));

    const gate = await gateOf(runId);
    await gate.reaches('paused');
    pausedStateIs((await statusOf(project, env, runId)).state);
    // The calls made before each answer count the failures that paused the run and the calls then under way.
    const firstAnswer = Date.now();
    const goOn = await cli(['continue', runId]);
    expect(goOn.code, goOn.stderr).toBe(0);
    expect(goOn.stdout).toContain(`going on with run ${runId}`);

    await gate.reaches('running');
    await gate.reaches('paused');
    const secondAnswer = Date.now();
    const stop = await cli(['stop', runId]);
    expect(stop.code, stop.stderr).toBe(0);
    expect(stop.stdout).toContain(`stopping run ${runId}`);
    const before = (t: number) => server.hits.filter((h) => h.t < t).length;
    const [first, second] = [before(firstAnswer), before(secondAnswer)];
    const counts = `requests before the answers: ${first}, ${second}`;
    expect(first, counts).toBeGreaterThanOrEqual(100);
    expect(first, counts).toBeLessThanOrEqual(100 + overshoot);
    expect(second - first, counts).toBeGreaterThanOrEqual(100 - overshoot);
    expect(second - first, counts).toBeLessThanOrEqual(100 + overshoot);

    // The stopped run closes, so its worker leaves; the report holds what finished: a result per call made.
    const served = await worker.done;
    expect(served.code, served.stderr).toBe(0);
    const { report } = await reportOf(project, env, runId);
    expect(report.status).toBe('aborted');
    expect(report.results).toHaveLength(server.hits.length);
    expect(server.hits.length).toBeLessThan(calls);
  }, 210_000);

  // `status` reads the gate's state (a worker serves its query) beside the workflow's status.
  it('status --json shows a paused run as paused', async ({ expect }) => {
    expect(await pausedState).toBe('paused');
  }, 210_000);
});
