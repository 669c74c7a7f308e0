import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { StartFlags } from '../cli/options.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { linkForCommand } from '../session/link.ts';
import { planRun } from '../session/plan-run.ts';
import { checkBeforeRun, prepareSuite } from '../session/prepare.ts';
import { newRunId } from '../session/run-id.ts';
import { estimateTotal, prepareStart, startBuild, startPrepared } from '../session/run.ts';
import { chooseTracking } from '../session/trackers.ts';
import { taskQueueFor } from '../client/worker.ts';

const BIN = join(PACKAGE_ROOT, 'bin', 'llm-evals.mjs');

/** Spawns a detached `llm-evals worker --until RUN` in the suite's project, logging to `log/worker.<run>.log`. */
function spawnWorker(runId: string, projectDir: string, flags: StartFlags, io: Io): string {
  mkdirSync(join(projectDir, 'log'), { recursive: true });
  const logFile = join(projectDir, 'log', `worker.${runId}.log`);
  const out = openSync(logFile, 'a');
  const args = [BIN, 'worker', '--until', runId];
  if (flags.config) args.push('--config', flags.config);
  if (flags.helper) args.push('--helper', flags.helper);
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

/** `start`: plans and starts a run, prints its id and returns; a detached worker serves it unless `--no-worker`. */
export async function startCommand(flags: StartFlags, io: Io): Promise<number> {
  const planned = await planRun(flags, io, flags.models);
  await prepareSuite(planned.suite, io);
  await checkBeforeRun(planned, flags, io);
  const tracking = await chooseTracking(planned.suite, flags, io);
  const link = await linkForCommand(planned.suite.projectDir, io, 'start');
  try {
    const start = prepareStart(planned, tracking, newRunId(), await estimateTotal(planned));
    const { runId } = start;
    const taskQueue = taskQueueFor(planned.suite.name, io.env);
    await startPrepared(
      link,
      start,
      taskQueue,
      planned.suite.projectDir,
      await startBuild(link, taskQueue, io.env),
    );
    if (flags.worker !== false) {
      const log = spawnWorker(runId, planned.suite.projectDir, flags, io);
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
