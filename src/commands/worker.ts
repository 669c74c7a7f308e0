import pc from 'picocolors';
import { runWorkflowId } from '../core/run-input.ts';
import { loadCases } from '../suite/cases.ts';
import { readRun } from '../temporal/run-data.ts';
import { createSuiteWorker, taskQueueFor } from '../temporal/worker.ts';
import { linkForCommand, prepareSuite } from './execute-run.ts';
import type { Io } from './io.ts';
import { openSuite } from './open-suite.ts';
import type { WorkerFlags } from './options.ts';

/** `worker` (D4): serves this suite's runs with its adapter, scorer, providers and cases; any number, on any machine. */
export async function workerCommand(flags: WorkerFlags, io: Io): Promise<number> {
  const suite = await openSuite(flags, io);
  const { cases } = loadCases(suite.root, suite.casesGlob);
  await prepareSuite(suite, io);
  const link = await linkForCommand(suite.projectDir, io, 'worker');
  try {
    // With --until, the run's own queue (a compare's run has one); else the suite's, where `start` puts runs.
    const taskQueue = flags.until
      ? (await readRun(link.client, flags.until)).taskQueue
      : taskQueueFor(suite.name, io.env);
    const worker = await createSuiteWorker(
      link,
      taskQueue,
      {
        adapter: suite.adapter,
        scorer: suite.scorer,
        registry: suite.registry,
        cases: new Map(cases.map((c) => [c.key, c])),
      },
      { maxActivities: flags.maxActivities },
    );
    io.stderr.write(`worker serving ${pc.bold(taskQueue)} on ${link.address} (pid ${process.pid})\n`);
    const interrupt = io.watchInterrupt?.();
    const stopped = new Promise<void>((resolve) =>
      interrupt?.addEventListener('abort', () => resolve(), { once: true }),
    );
    const closed = flags.until
      ? link.client.workflow
          .getHandle(runWorkflowId(flags.until))
          .result()
          .then(
            () => undefined,
            () => undefined,
          )
      : new Promise<void>(() => {});
    await worker.runUntil(async () => {
      await Promise.race([stopped, closed]);
      if (interrupt?.aborted)
        io.stderr.write('stopping: the calls in flight finish and are recorded first\n');
    });
    io.stderr.write('worker stopped\n');
    return 0;
  } finally {
    await link.close();
  }
}
