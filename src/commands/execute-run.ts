import { join, resolve } from 'node:path';
import pc from 'picocolors';
import { ConfigError, Interrupted } from '../errors.ts';
import { saveSnapshot } from '../report/save.ts';
import type { Snapshot } from '../report/snapshot.ts';
import type { LoadedSuite } from '../suite/load.ts';
import { loadEnvFiles } from '../suite/load.ts';
import { linkTemporal, type TemporalLink } from '../temporal/connect.ts';
import { stamp } from '../temporal/run.ts';
import { logTemporalTo } from '../temporal/runtime-log.ts';
import { taskQueueFor } from '../temporal/worker.ts';
import type { Io } from './io.ts';
import { pausePolicy } from './pause.ts';
import type { RunFlags } from './options.ts';
import type { PlannedRun } from './plan-run.ts';
import { collectSnapshot, resumeHint, serveRun, startPlannedRun } from './run-session.ts';

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

/** Links a project to Temporal and sends the SDK's own log lines to `log/<command>.warnings.<stamp>.log` there. */
export async function linkForCommand(projectDir: string, io: Io, command: string): Promise<TemporalLink> {
  const link = await linkTemporal({
    env: io.env,
    log: (line) => io.stderr.write(pc.dim(line) + '\n'),
  });
  logTemporalTo(join(projectDir, 'log', `${command}.warnings.${stamp()}.log`));
  return link;
}

/** Saves a snapshot where the flags and the lineup's `results:` say (R3); returns the file. */
export function saveRunSnapshot(snapshot: Snapshot, suite: LoadedSuite, flags: RunFlags): string {
  const results = suite.config.values.results;
  const autosave = flags.autosave ?? results?.autosave ?? true;
  const dir = autosave
    ? resolve(suite.projectDir, flags.destination ?? results?.destination ?? join(suite.root, 'results'))
    : resolve(suite.projectDir, flags.tempDir ?? results?.temp_dir ?? 'tmp');
  return saveSnapshot(snapshot, dir);
}

/** Prepares a process that will call the suite's code: its env files, then its beforeRun hook. */
export async function prepareSuite(suite: LoadedSuite, io: Io): Promise<void> {
  loadEnvFiles(suite.root, suite.envFiles, io.env);
  await suite.beforeRun?.();
}

/** Runs a plan on Temporal with a worker in this process, drawing progress, and saves the snapshot (C3, C4). */
export async function executeRun(
  planned: PlannedRun,
  flags: RunFlags,
  io: Io,
  command: string,
): Promise<{ snapshot: Snapshot; file: string }> {
  await prepareSuite(planned.suite, io);
  checkKeys(planned, io.env);
  const link = await linkForCommand(planned.suite.projectDir, io, command);
  try {
    // A queue of its own: this process's worker serves this run, not other runs of the suite left waiting.
    const runId = await startPlannedRun(
      planned,
      link,
      (id) => `${taskQueueFor(planned.suite.name, io.env)}/${id}`,
    );
    const ui = link.uiUrl
      ? ` ${pc.dim(`${link.uiUrl}/namespaces/${link.namespace}/workflows/${encodeURIComponent(`llm-evals/${runId}`)}`)}`
      : '';
    io.stderr.write(`run ${pc.bold(runId)} started${ui}\n`);
    if ((await serveRun(link, planned, runId, io, pausePolicy(flags.yes, io))) === 'interrupted') {
      io.stderr.write(resumeHint(runId) + '\n');
      throw new Interrupted(`run ${runId} interrupted`);
    }
    const snapshot = await collectSnapshot(link, planned.cases, runId);
    return { snapshot, file: saveRunSnapshot(snapshot, planned.suite, flags) };
  } finally {
    await link.close();
  }
}
