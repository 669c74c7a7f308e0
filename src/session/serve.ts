import { setTimeout as sleep } from 'node:timers/promises';
import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import type { RunProgress } from '../core/progress.ts';
import type { RunInput } from '../core/run-input.ts';
import { renderProgress } from '../report/progress.ts';
import type { LoadedCase } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import type { TemporalLink } from '../temporal/connect.ts';
import { createSuiteWorker, type SuiteDeps, type SuiteWorker } from '../temporal/worker.ts';
import { LiveLines } from './live-lines.ts';
import { answerPause, type PausePolicy } from './pause.ts';
import { trackerSuite } from './trackers.ts';

/** A suite loaded in this process, with the cases its worker serves. */
export interface Served {
  suite: LoadedSuite;
  cases: readonly LoadedCase[];
}

/** The worker's share of a loaded suite: its adapter, scorer, providers, cases and trackers, and the env of its keys. */
export function suiteDeps({ suite, cases }: Served, env: NodeJS.ProcessEnv): SuiteDeps {
  return {
    adapter: suite.adapter,
    scorer: suite.scorer,
    registry: suite.registry,
    cases: new Map(cases.map((c) => [c.key, c])),
    trackers: trackerSuite(suite),
    env,
  };
}

/** Creates a worker for the suite on a run's task queue, with the suite's code, cases and trackers. */
export function suiteWorker(
  link: TemporalLink,
  taskQueue: string,
  served: Served,
  env: NodeJS.ProcessEnv,
): Promise<SuiteWorker> {
  return createSuiteWorker(link, taskQueue, suiteDeps(served, env));
}

/** Every experiment done: what the progress view shows once the run has closed and its queries can no longer say. */
function doneProgress(runId: string, input: RunInput): RunProgress {
  return {
    runId,
    experiments: input.experiments.map((e) => {
      const total = input.datasets[e.dataset]!.length;
      return { id: e.id, total, done: total, errors: 0, state: 'completed' as const };
    }),
  };
}

/** Runs the worker in this process and draws the run's progress until it closes or the user interrupts. */
export async function serveRun(
  link: TemporalLink,
  worker: SuiteWorker,
  runId: string,
  input: RunInput,
  io: Io,
  policy: PausePolicy = 'stop',
): Promise<'closed' | 'interrupted'> {
  const experiments = input.experiments.map((e) => ({ ...e, contender: input.contenders[e.contender]!.key }));
  const stderr = io.stderr as { isTTY?: boolean; columns?: number };
  const live = new LiveLines(io.stderr, Boolean(stderr.isTTY), stderr.isTTY ? stderr.columns : undefined);
  const draw = (progress: RunProgress) => live.draw(renderProgress(progress, experiments, input.contenders));
  const interrupt = io.watchInterrupt?.();
  return worker.runUntil(async () => {
    let closed = false;
    const outcome = link.runs.outcome(runId).then(
      () => (closed = true),
      () => (closed = true),
    );
    const interrupted = new Promise<void>((resolve) =>
      interrupt?.addEventListener('abort', () => resolve(), { once: true }),
    );
    for (let tick = 0; !closed && !interrupt?.aborted; tick++) {
      try {
        draw(await link.runs.progress(runId));
      } catch {
        // Between runs of a continue-as-new the query can miss; the next tick draws.
      }
      const gate = tick % 4 === 0 ? await link.runs.gate(runId) : undefined;
      if (gate?.state === 'paused') await answerPause(link.runs, runId, gate, input, policy, io);
      await Promise.race([outcome, interrupted, sleep(250)]);
    }
    if (!closed) {
      io.stderr.write('stopping: the calls in flight finish and are recorded first\n');
      return 'interrupted';
    }
    draw(await link.runs.progress(runId).catch(() => doneProgress(runId, input)));
    return 'closed';
  });
}

/** Tells the user how to pick a run back up. */
export function resumeHint(runId: string): string {
  return `${pc.yellow('interrupted')}: the run goes on in Temporal; continue it with ${pc.bold(`llm-evals resume ${runId}`)}`;
}
