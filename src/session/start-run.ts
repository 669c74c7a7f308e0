import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { beginRun } from './begin-run.ts';
import { linkForCommand } from './link.ts';
import { dryRun } from './dry-run.ts';
import { planRun } from './plan-run.ts';
import { estimateTotal, prepareStart, startBuild, startPrepared } from './run.ts';
import { taskQueueFor } from '../client/worker.ts';
import type { RunRequest, SuitePlace } from '../core/request.ts';

const BIN = join(PACKAGE_ROOT, 'bin', 'llm-evals.mjs');

/** Spawns a detached `llm-evals worker --until RUN` in the suite's project, logging to `log/worker.<run>.log`. */
function spawnWorker(runId: string, projectDir: string, place: SuitePlace, io: Io): string {
  mkdirSync(join(projectDir, 'log'), { recursive: true });
  const logFile = join(projectDir, 'log', `worker.${runId}.log`);
  const out = openSync(logFile, 'a');
  const args = [BIN, 'worker', '--until', runId];
  if (place.config) args.push('--config', place.config);
  if (place.helper) args.push('--helper', place.helper);
  // It outlives this process on purpose: npm's mark would make it stop when this one ends (followsParent).
  const { npm_command: _npm, ...env } = io.env;
  const child = spawn(process.execPath, args, {
    cwd: io.cwd,
    env,
    detached: true,
    stdio: ['ignore', out, out],
  });
  child.unref();
  return logFile;
}

/**
 * `start`: plans and starts the requested run, prints its id and returns; a detached worker serves it unless `worker`
 * is false, which leaves serving it to `llm-evals worker` processes.
 */
export async function startRun(request: RunRequest, worker: boolean, io: Io): Promise<number> {
  const planned = await planRun(request, io);
  if (request.dryRun) return dryRun(planned, request, io);
  const begun = await beginRun(planned, request, io);
  const link = await linkForCommand(planned.suite.projectDir, io, 'start');
  try {
    const start = prepareStart(planned, begun.tracking, begun.runId, await estimateTotal(planned));
    const { runId } = start;
    const taskQueue = taskQueueFor(planned.suite.name, io.env);
    await startPrepared(
      link,
      start,
      taskQueue,
      planned.suite.projectDir,
      await startBuild(link, taskQueue, io.env),
    );
    if (worker) {
      const log = spawnWorker(runId, planned.suite.projectDir, request.suite, io);
      io.stderr.write(`a worker serves it in the background (log: ${log})\n`);
    } else {
      io.stderr.write(`start ${pc.bold('llm-evals worker')} to serve it\n`);
    }
    io.stderr.write(`watch it with ${pc.bold(`llm-evals status ${runId} --watch`)}\n`);
    io.stdout.write(`${runId}\n`);
    return 0;
  } finally {
    await link.close();
  }
}
