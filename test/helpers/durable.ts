import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { TestContext } from 'vitest';
import { runCli, runCliLong, startCli, type CliProcess } from './cli.ts';
import {
  expectResumedCleanly,
  recordFileIn,
  writeRecordingSuite,
  type CallAudit,
  type RecordingSuite,
} from './recording-suite.ts';
import { reportOf, type RunReport } from './run-reads.ts';
import { keepHistories, keptHistoriesDir } from './keep-histories.ts';
import { TempDirs } from './suite-dir.ts';
import { freeServerPort } from './temporal.ts';

// What the durability tests (test/durable/resume-*.test.ts) share: a 20-case recording suite run at -p 2 -j 2 with
// calls of a quarter second, so an interruption at 10, 50 or 90 % finds calls in flight.

/** Cases in each durability scenario's suite. */
export const CASES = 20;
/** How long each fake call takes. */
export const CALL_MS = 250;
const PARALLELISM = 2;
const CONCURRENCY = 2;
/** Calls that can be in flight at once, and so at most repeated after an interruption (with those just finished). */
export const IN_FLIGHT = PARALLELISM * CONCURRENCY;
/** The flags every durability scenario plans its run with. */
export const RUN_FLAGS = ['-p', String(PARALLELISM), '-j', String(CONCURRENCY)];

/** The env that makes the recording provider record to `record`, on a task queue of its own named after `name`. */
export function recordingEnv(record: string, name: string): NodeJS.ProcessEnv {
  return {
    LLM_EVALS_TASK_QUEUE: `durable-${name}-${randomUUID()}`,
    RECORD_FILE: record,
    RECORDING_API_KEY: 'test-key',
    CALL_DELAY_MS: String(CALL_MS),
  };
}

/** A project with a recording suite and an embedded Temporal server of its own (state under `<dir>/.llm-evals`). */
export interface OwnServerProject {
  dir: string;
  suite: RecordingSuite;
  record: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The projects of a test file whose scenarios each kill or stop their own Temporal server, and the CLIs started on
 * them: `cleanUp()` (in `afterAll`) kills what still runs, stops every server and removes the folders.
 */
export class OwnServerProjects {
  private readonly started: CliProcess[] = [];
  private readonly projects: { dir: string; env: NodeJS.ProcessEnv }[] = [];
  private readonly dirs = new TempDirs();

  /**
   * A fresh project of `cases` cases under the repository's tmp/ (`import 'llm-evals'` resolves there), its calls
   * recorded under the task queue `name`; `env` adds to or overrides the recording env. With `serverUp`, its server
   * is started before it is returned.
   */
  async project(
    name: string,
    options: { cases?: number; env?: NodeJS.ProcessEnv; serverUp?: boolean } = {},
  ): Promise<OwnServerProject> {
    const dir = this.dirs.inRepo(`${name}-`);
    const suite = writeRecordingSuite(dir, options.cases ?? CASES);
    const record = recordFileIn(dir);
    const env = { ...(await ownServerEnv(dir)), ...recordingEnv(record, name), ...options.env };
    this.projects.push({ dir, env });
    if (options.serverUp) await startServer(dir, env);
    return { dir, suite, record, env };
  }

  /** Starts the CLI in a project, to be killed by `cleanUp()` if it still runs then. */
  start(args: string[], { dir, env }: Pick<OwnServerProject, 'dir' | 'env'>, timeoutMs?: number): CliProcess {
    const cli = startCli(args, { cwd: dir, env, ...(timeoutMs ? { timeoutMs } : {}) });
    this.started.push(cli);
    return cli;
  }

  async cleanUp(): Promise<void> {
    for (const cli of this.started) if (cli.child.exitCode === null) cli.child.kill('SIGKILL');
    const keep = keptHistoriesDir();
    if (keep)
      for (const { dir, env } of this.projects)
        await keepHistories(`127.0.0.1:${env.LLM_EVALS_TEMPORAL_PORT}`, keep, basename(dir));
    await Promise.all(
      this.projects.map(({ dir, env }) => runCli(['server', 'stop', '--force'], { cwd: dir, env })),
    );
    this.dirs.removeAll();
  }
}

/** The project's embedded server as its state file names it: its pid and SQLite file. */
export function serverOf(dir: string): { pid: number; dbFile: string } {
  return JSON.parse(readFileSync(join(dir, '.llm-evals/server.json'), 'utf8')) as {
    pid: number;
    dbFile: string;
  };
}

/** SIGKILLs the project's embedded server; returns what it was. */
export function killServer(dir: string): { pid: number; dbFile: string } {
  const server = serverOf(dir);
  process.kill(server.pid, 'SIGKILL');
  return server;
}

/**
 * The env of a project's own embedded server: its state under `<dir>/.llm-evals`, on a free port. Under
 * `npm run test:cluster` the project's Temporal is the cluster instead (its state folder still its own).
 */
export async function ownServerEnv(dir: string): Promise<NodeJS.ProcessEnv> {
  const cluster = process.env.LLM_EVALS_TEST_CLUSTER;
  if (cluster) return { TEMPORAL_ADDRESS: cluster, LLM_EVALS_STATE_DIR: join(dir, '.llm-evals') };
  return {
    TEMPORAL_ADDRESS: '',
    LLM_EVALS_STATE_DIR: join(dir, '.llm-evals'),
    LLM_EVALS_TEMPORAL_PORT: String(await freeServerPort()),
  };
}

/** `server start` in the project (nothing on the cluster, which runs already): throws with what it said if it fails. */
export async function startServer(dir: string, env: NodeJS.ProcessEnv): Promise<void> {
  if (env.TEMPORAL_ADDRESS) return;
  const { code, stderr } = await runCli(['server', 'start'], { cwd: dir, env });
  if (code !== 0) throw new Error(`server start exited ${code}:\n${stderr}`);
}

/** `start --no-worker` with the durability scenarios' flags: the run id it prints. */
export async function startRun(dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { code, stdout, stderr } = await runCli(['start', '--no-worker', ...RUN_FLAGS], { cwd: dir, env });
  if (code !== 0) throw new Error(`start exited ${code}:\n${stderr}`);
  return stdout.trim();
}

/** An uninterrupted `compare` of the project's suite with the scenarios' flags: its report. */
export async function uninterruptedCompare(dir: string, env: NodeJS.ProcessEnv): Promise<RunReport> {
  const { code, stderr } = await runCliLong(['compare', ...RUN_FLAGS, '--no-open'], { cwd: dir, env });
  if (code !== 0) throw new Error(`the uninterrupted compare exited ${code}:\n${stderr}`);
  const runId = /run (\S+) started/.exec(stderr)?.[1];
  if (!runId) throw new Error(`no run id in:\n${stderr}`);
  return (await reportOf(dir, env, runId)).report;
}

/**
 * Checks a run interrupted at call `interruptedAfter` (at `interruptedAt`) and finished at `finishedAt` with
 * expectResumedCleanly, for the scenarios' calls in flight and call time, and notes on the test what happened.
 */
export async function expectResumed(
  { expect, annotate }: Pick<TestContext, 'expect' | 'annotate'>,
  suite: RecordingSuite,
  record: string,
  run: {
    interruptedAfter: number;
    interruptedAt: number;
    finishedAt: number;
    report: RunReport;
    baseline: RunReport;
  },
): Promise<CallAudit> {
  const { interruptedAt, report, baseline } = run;
  const audit = expectResumedCleanly(expect, suite, record, {
    interruptedAt,
    inFlight: IN_FLIGHT,
    callMs: CALL_MS,
    report,
    baseline,
  });
  await annotate(
    `interrupted at call ${run.interruptedAfter}; finished ${((run.finishedAt - interruptedAt) / 1000).toFixed(1)} s ` +
      `later; ${audit.extra} call(s) repeated: ${audit.repeated.map((r) => r.call).join(', ') || 'none'}`,
  );
  return audit;
}
