import { join } from 'node:path';
import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { runWorkflowId } from '../core/run-input.ts';
import { linkIfRunning, linkTemporal, type TemporalLink } from '../client/connect.ts';
import { logTemporalTo } from '../client/runtime-log.ts';
import { stamp } from './run-id.ts';

/**
 * Links a command to Temporal, and sends the SDK's own log lines to `log/<command>.warnings.<stamp>.log` in
 * `projectDir`; `serve` for a command whose worker serves runs in this process (see LinkOptions).
 */
export async function linkForCommand(
  projectDir: string,
  io: Io,
  command: string,
  serve = false,
): Promise<TemporalLink> {
  // Named before the worker's SDK loads, which sets its runtime up with the file.
  logTemporalTo(join(projectDir, 'log', `${command}.warnings.${stamp()}.log`));
  return linkTemporal({ env: io.env, log: (line) => io.stderr.write(pc.dim(line) + '\n'), serve });
}

/** The Temporal Web UI's page of a run, when the UI's address is known. */
export function runPage(link: TemporalLink, runId: string): string | undefined {
  if (!link.uiUrl) return undefined;
  return `${link.uiUrl}/namespaces/${link.namespace}/workflows/${encodeURIComponent(runWorkflowId(runId))}`;
}

/** The run ids of a project (newest first) when Temporal is already up; none otherwise. For shell completion. */
export async function recentRunIds(project: string, io: Io, limit = 30): Promise<string[]> {
  const link = await linkIfRunning({ env: io.env, log: () => undefined });
  if (!link) return [];
  try {
    const ids: string[] = [];
    for await (const run of link.runs.list({ project, limit })) ids.push(run.runId);
    return ids;
  } finally {
    await link.close();
  }
}

/** The names of a project's schedules when Temporal is already up; none otherwise. For shell completion. */
export async function scheduleNames(project: string, io: Io): Promise<string[]> {
  const link = await linkIfRunning({ env: io.env, log: () => undefined });
  if (!link) return [];
  try {
    return (await link.schedules.list(project)).map((s) => s.name);
  } finally {
    await link.close();
  }
}
