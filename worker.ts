// The worker's entry point: what `llm-evals worker` runs. It loads the suite in this process and serves its runs —
// started by `start`, by a schedule, or a `compare` being resumed — on any machine that reaches the cluster.
import { setTimeout as sleep } from 'node:timers/promises';
import pc from 'picocolors';
import type { Io } from './src/cli/io.ts';
import { openSuite } from './src/session/open-suite.ts';
import type { WorkerFlags } from './src/cli/options.ts';
import type { ScheduledRunSpec } from './src/core/schedule-spec.ts';
import { linkForCommand } from './src/session/link.ts';
import { prepareSuite } from './src/session/prepare.ts';
import { warnKeyless } from './src/session/worker-keys.ts';
import { planFire } from './src/session/plan-fire.ts';
import { fireRequestOf } from './src/commands/request.ts';
import { DRAIN_MS, STOPPING_LINE, suiteDeps } from './src/session/serve.ts';
import { liveCases } from './src/suite/cases.ts';
import { engineTracing } from './src/client/engine-tracing.ts';
import { watchTemporal } from './src/client/health.ts';
import { createSuiteWorker, taskQueueFor } from './src/client/worker.ts';
import { currentUnlessSet, describeBuild, runsPinnedTo, type Build } from './src/client/versioning.ts';
import type { Client } from '@temporalio/client';

/**
 * With Worker Versioning: the build this worker polls as, whether it is its deployment's current version (made so when
 * the deployment had none, or no worker of its current build polls), and the runs pinned to it that it may serve. Said once it polls; never stops the worker.
 */
async function sayBuild(client: Client, build: Build, taskQueue: string, io: Io): Promise<void> {
  try {
    const current = await currentUnlessSet(client, build, taskQueue);
    const pinned = await runsPinnedTo(client, build);
    const role =
      current === build.buildId
        ? 'the current version: new runs of its schedules go to it'
        : `not the current version (${current}): it serves the runs pinned to it; make it current with ` +
          `temporal worker deployment set-current-version --deployment-name ${build.deploymentName} --build-id ${build.buildId}`;
    io.stderr.write(`build ${describeBuild(build)}, ${role}\n`);
    if (pinned)
      io.stderr.write(
        pinned.length
          ? `runs pinned to this build: ${pinned.join(', ')}\n`
          : 'runs pinned to this build: none running now (new runs started from this checkout are)\n',
      );
  } catch (error) {
    io.stderr.write(pc.yellow(`build ${describeBuild(build)}: ${(error as Error).message}\n`));
  }
}

/** `worker`: serves this suite's runs with its adapter, scorer, providers and cases; any number, on any machine. */
export async function workerMain(flags: WorkerFlags, io: Io): Promise<number> {
  const suite = await openSuite(flags, io);
  // Read again when a run planned after this process started (a schedule's fire, a later `start`) needs it.
  const live = liveCases(suite.root, suite.casesGlob);
  await prepareSuite(suite, io);
  const link = await linkForCommand(suite.projectDir, io, 'worker');
  try {
    // With --until, the run's own queue (a compare's run has one); else the suite's, where `start` puts runs.
    const record = flags.until ? await link.runs.read(flags.until) : undefined;
    const taskQueue = record ? record.taskQueue : taskQueueFor(suite.name, io.env);
    const deps = {
      ...suiteDeps({ suite, cases: [] }, io.env),
      cases: live.cases,
      refreshCases: live.refresh,
      planFire: (spec: ScheduledRunSpec, runId: string) =>
        planFire(suite, spec, fireRequestOf(spec), runId, io),
    };
    // Watched before the line that says it serves: whoever reads it may stop it at once.
    const interrupt = io.watchInterrupt?.();
    const stopped = new Promise<void>((resolve) => {
      if (interrupt?.aborted) resolve();
      interrupt?.addEventListener('abort', () => resolve(), { once: true });
    });
    const worker = await createSuiteWorker(link, taskQueue, deps, {
      maxActivities: flags.maxActivities,
      project: suite.projectDir,
      versioned: taskQueue === taskQueueFor(suite.name, io.env),
    });
    io.stderr.write(`worker serving ${pc.bold(taskQueue)} on ${link.address} (pid ${process.pid})\n`);
    if (worker.build) void sayBuild(link.client, worker.build, taskQueue, io);
    // The run's own contenders when it serves one run (`-m` may name models outside the lineup), else the lineup's.
    warnKeyless(suite, io, record?.input.contenders);
    // A lost server is waited out, never taken for the run's close: the run goes on once it answers again.
    const closed = flags.until ? link.runs.closed(flags.until, interrupt) : new Promise<void>(() => {});
    const watching = new AbortController();
    const said = (up: boolean, error?: string) =>
      io.stderr.write(
        up
          ? `Temporal at ${link.address} answers again; serving ${taskQueue}\n`
          : pc.yellow(
              `lost Temporal at ${link.address} (${error}); polling again with back-off until it is back\n`,
            ),
      );
    const watch = watchTemporal(link, said, watching.signal);
    try {
      const serving = worker.runUntil(async () => {
        await Promise.race([stopped, closed]);
        if (interrupt?.aborted) io.stderr.write(`${STOPPING_LINE}\n`);
        else if (flags.until) io.stderr.write(`run ${flags.until} has closed; stopping\n`);
      });
      // A Ctrl-C is obeyed within DRAIN_MS, whatever the calls in flight do (a provider that hangs holds them).
      const drained = stopped.then(() => sleep(DRAIN_MS, 'timed out' as const, { ref: false }));
      if ((await Promise.race([serving, drained])) === 'timed out')
        io.stderr.write(
          `stopped waiting for the calls in flight after ${DRAIN_MS / 1000} s: the next worker makes them again\n`,
        );
    } finally {
      watching.abort();
      await watch;
    }
    // The engine's last spans leave before the process does.
    await (await engineTracing(io.env))?.shutdown();
    io.stderr.write('worker stopped\n');
    return 0;
  } finally {
    await link.close();
  }
}
