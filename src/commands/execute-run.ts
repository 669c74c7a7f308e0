import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pc from 'picocolors';
import { toRunInput } from '../core/run-input.ts';
import type { RunResult } from '../../workflows/index.ts';
import { ConfigError } from '../errors.ts';
import { LiveLines, renderProgress } from '../report/progress.ts';
import { saveSnapshot } from '../report/save.ts';
import type { Snapshot } from '../report/snapshot.ts';
import { linkTemporal } from '../temporal/connect.ts';
import { fetchResults, newRunId, queryProgress, startRun } from '../temporal/run.ts';
import { logTemporalTo } from '../temporal/runtime-log.ts';
import { createSuiteWorker, taskQueueFor } from '../temporal/worker.ts';
import { loadEnvFiles } from '../suite/load.ts';
import type { Io } from './io.ts';
import type { RunFlags } from './options.ts';
import type { PlannedRun } from './plan-run.ts';

/** Fails before any call when a provider the plan uses lacks its key, naming the variable (P5). */
export function checkKeys({ suite, plan }: PlannedRun, env: NodeJS.ProcessEnv): void {
  for (const name of new Set(plan.contenders.map((c) => c.provider))) {
    for (const key of suite.registry.get(name)?.envKeys ?? []) {
      if (!env[key])
        throw new ConfigError(
          undefined,
          key,
          `not set, and provider ${name} needs it (export it, or put it in an env file)`,
        );
    }
  }
}

/** The timestamp used in log and snapshot file names. */
export function stamp(now = new Date()): string {
  return now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** Runs a plan on Temporal with a worker in this process, drawing progress, and saves the snapshot. */
export async function executeRun(
  planned: PlannedRun,
  flags: RunFlags,
  io: Io,
  command: string,
): Promise<{ snapshot: Snapshot; file: string }> {
  const { suite, plan, cases } = planned;
  loadEnvFiles(suite.root, suite.envFiles, io.env);
  checkKeys(planned, io.env);
  await suite.beforeRun?.();
  logTemporalTo(join(suite.projectDir, 'log', `${command}.warnings.${stamp()}.log`));
  const link = await linkTemporal({
    projectDir: suite.projectDir,
    env: io.env,
    log: (line) => io.stderr.write(pc.dim(line) + '\n'),
  });
  const runId = newRunId();
  const createdAt = new Date().toISOString();
  const taskQueue = taskQueueFor(suite.name, io.env);
  try {
    const worker = await createSuiteWorker(link, taskQueue, {
      adapter: suite.adapter,
      scorer: suite.scorer,
      registry: suite.registry,
      cases: new Map(cases.map((c) => [c.key, c])),
    });
    const results = await worker.runUntil(async () => {
      const handle = await startRun(link.client, taskQueue, toRunInput(runId, plan));
      const ui = link.uiUrl
        ? ` ${pc.dim(`${link.uiUrl}/namespaces/${link.namespace}/workflows/${encodeURIComponent(handle.workflowId)}`)}`
        : '';
      io.stderr.write(`run ${pc.bold(runId)} started${ui}\n`);
      const live = new LiveLines(io.stderr, Boolean((io.stderr as { isTTY?: boolean }).isTTY));
      let finished = false;
      const outcome = handle.result().finally(() => (finished = true)) as Promise<RunResult>;
      while (!finished) {
        try {
          live.draw(
            renderProgress(await queryProgress(link.client, runId), plan.experiments, plan.contenders),
          );
        } catch {
          // The run may have just closed; the result decides.
        }
        await Promise.race([outcome.catch(() => undefined), sleep(250)]);
      }
      const result = await outcome;
      live.draw(
        renderProgress(
          await queryProgress(link.client, runId).catch(() => ({
            runId,
            experiments: result.experiments.map((e) => ({
              id: e.id,
              total: e.cases,
              done: e.cases,
              errors: e.errors,
              state: 'completed' as const,
            })),
          })),
          plan.experiments,
          plan.contenders,
        ),
      );
      return fetchResults(link.client, result);
    });
    const snapshot: Snapshot = {
      version: 1,
      runId,
      suite: {
        name: suite.name,
        ...(suite.description ? { description: suite.description } : {}),
        project: suite.projectDir,
      },
      status: 'completed',
      createdAt,
      finishedAt: new Date().toISOString(),
      options: plan.options,
      settings: plan.settings,
      contenders: plan.contenders,
      refused: plan.refused,
      experiments: plan.experiments,
      metrics: suite.scorer.metrics(),
      ...(plan.weights ? { weights: plan.weights } : {}),
      cases: cases.map(({ key, id, dataset, variant, input, expected, metadata }) => ({
        key,
        id,
        dataset,
        variant,
        input,
        expected,
        metadata,
      })),
      results,
    };
    const autosave = flags.autosave ?? suite.config.values.results?.autosave ?? true;
    const dir = autosave
      ? resolve(
          suite.projectDir,
          flags.destination ?? suite.config.values.results?.destination ?? join(suite.root, 'results'),
        )
      : resolve(suite.projectDir, flags.tempDir ?? suite.config.values.results?.temp_dir ?? 'tmp');
    return { snapshot, file: saveSnapshot(snapshot, dir) };
  } finally {
    await link.close();
  }
}
