import { setTimeout as sleep } from 'node:timers/promises';
import pc from 'picocolors';
import type { LoadedCase } from '../suite/cases.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { toRunInput } from '../core/run-input.ts';
import type { CaseResult } from '../core/results.ts';
import { LiveLines, renderProgress } from '../report/progress.ts';
import type { Snapshot } from '../report/snapshot.ts';
import type { TemporalLink } from '../temporal/connect.ts';
import { readRun, type RunHeader } from '../temporal/run-data.ts';
import { fetchResults, newRunId, queryProgress, startRun } from '../temporal/run.ts';
import { createSuiteWorker } from '../temporal/worker.ts';
import type { RunResult } from '../../workflows/index.ts';
import type { Io } from './io.ts';
import { answerPause, readGate, type PausePolicy } from './pause.ts';
import type { PlannedRun } from './plan-run.ts';

/** Starts a planned run's workflows on the task queue chosen for its id, with its header as memo; returns the run id. */
export async function startPlannedRun(
  { suite, plan }: PlannedRun,
  link: TemporalLink,
  queueFor: (runId: string) => string,
): Promise<string> {
  const runId = newRunId();
  const taskQueue = queueFor(runId);
  const header: RunHeader = {
    createdAt: new Date().toISOString(),
    suite: {
      name: suite.name,
      ...(suite.description ? { description: suite.description } : {}),
      project: suite.projectDir,
    },
    options: plan.options,
    settings: plan.settings,
    metrics: suite.scorer.metrics(),
    refused: plan.refused,
    ...(plan.weights ? { weights: plan.weights } : {}),
  };
  await startRun(link.client, taskQueue, toRunInput(runId, plan), header);
  return runId;
}

/** Runs a worker for the suite in this process and draws the run's progress until it closes or the user interrupts. */
export async function serveRun(
  link: TemporalLink,
  served: { suite: LoadedSuite; cases: readonly LoadedCase[] },
  runId: string,
  io: Io,
  policy: PausePolicy = 'stop',
): Promise<'closed' | 'interrupted'> {
  const { input, taskQueue } = await readRun(link.client, runId);
  const worker = await createSuiteWorker(link, taskQueue, {
    adapter: served.suite.adapter,
    scorer: served.suite.scorer,
    registry: served.suite.registry,
    cases: new Map(served.cases.map((c) => [c.key, c])),
  });
  const experiments = input.experiments.map((e) => ({ ...e, contender: input.contenders[e.contender]!.key }));
  const stderr = io.stderr as { isTTY?: boolean; columns?: number };
  const live = new LiveLines(io.stderr, Boolean(stderr.isTTY), stderr.isTTY ? stderr.columns : undefined);
  const handle = link.client.workflow.getHandle(`llm-evals/${runId}`);
  const interrupt = io.watchInterrupt?.();
  return worker.runUntil(async () => {
    let closed = false;
    const outcome = handle.result().then(
      () => (closed = true),
      () => (closed = true),
    );
    const interrupted = new Promise<void>((resolve) =>
      interrupt?.addEventListener('abort', () => resolve(), { once: true }),
    );
    for (let tick = 0; !closed && !interrupt?.aborted; tick++) {
      try {
        live.draw(renderProgress(await queryProgress(link.client, runId), experiments, input.contenders));
      } catch {
        // Between runs of a continue-as-new the query can miss; the next tick draws.
      }
      const gate = tick % 4 === 0 ? await readGate(link, runId) : undefined;
      if (gate?.state === 'paused') await answerPause(link, runId, gate, input, policy, io);
      await Promise.race([outcome, interrupted, sleep(250)]);
    }
    if (!closed) io.stderr.write('stopping: the calls in flight finish and are recorded first\n');
    if (closed)
      live.draw(
        renderProgress(
          await queryProgress(link.client, runId).catch(() => doneProgress(runId, input)),
          experiments,
          input.contenders,
        ),
      );
    return closed ? 'closed' : 'interrupted';
  });
}

function doneProgress(runId: string, input: Awaited<ReturnType<typeof readRun>>['input']) {
  return {
    runId,
    experiments: input.experiments.map((e) => {
      const total = input.datasets[e.dataset]!.length;
      return { id: e.id, total, done: total, errors: 0, state: 'completed' as const };
    }),
  };
}

/** Builds a run's snapshot from Temporal (results of closed slices) and the suite's cases on disk; partial while it runs. */
export async function collectSnapshot(
  link: TemporalLink,
  cases: readonly LoadedCase[],
  runId: string,
): Promise<Snapshot> {
  const { input, header, status, closed } = await readRun(link.client, runId);
  const handle = link.client.workflow.getHandle(`llm-evals/${runId}`);
  let state: Snapshot['status'] = 'partial';
  if (status === 'COMPLETED') {
    const result = (await handle.result()) as RunResult;
    state = result.state === 'aborted' ? 'aborted' : 'completed';
  } else if (closed) state = 'aborted';
  const results: CaseResult[] = await fetchResults(
    link.client,
    runId,
    input.experiments.map((e) => e.id),
  );
  const byKey = new Map(cases.map((c) => [c.key, c]));
  const keys = Object.values(input.datasets).flatMap((list) => list.map(([key]) => key));
  return {
    version: 1,
    runId,
    suite: header.suite,
    status: state,
    createdAt: header.createdAt,
    finishedAt: new Date().toISOString(),
    options: header.options,
    settings: header.settings,
    contenders: input.contenders,
    refused: header.refused,
    experiments: input.experiments.map((e) => ({
      id: e.id,
      contender: input.contenders[e.contender]!.key,
      dataset: e.dataset,
      caseKeys: input.datasets[e.dataset]!.map(([key]) => key),
    })),
    metrics: header.metrics,
    ...(header.weights ? { weights: header.weights } : {}),
    cases: keys.flatMap((key) => {
      const c = byKey.get(key);
      return c
        ? [
            {
              key,
              id: c.id,
              dataset: c.dataset,
              variant: c.variant,
              input: c.input,
              expected: c.expected,
              metadata: c.metadata,
            },
          ]
        : [];
    }),
    results,
  };
}

/** Tells the user how to pick a run back up. */
export function resumeHint(runId: string): string {
  return `${pc.yellow('interrupted')}: the run goes on in Temporal; continue it with ${pc.bold(`llm-evals resume ${runId}`)}`;
}
