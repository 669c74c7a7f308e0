import { setTimeout as sleep } from 'node:timers/promises';
import pc from 'picocolors';
import { runWorkflowId } from '../core/run-input.ts';
import { formatSeconds } from '../report/format.ts';
import { renderTable } from '../report/table.ts';
import type { TemporalLink } from '../temporal/connect.ts';
import { readRun, type RunRecord } from '../temporal/run-data.ts';
import { fetchResults, queryProgress } from '../temporal/run.ts';
import type { RunProgress } from '../core/progress.ts';
import { linkForCommand } from './execute-run.ts';
import { projectOf } from './open-suite.ts';
import { readGate } from './pause.ts';
import type { Io } from './io.ts';
import type { StatusFlags } from './options.ts';

/** The newest run on this Temporal, or undefined when there is none. */
export async function latestRun(link: TemporalLink): Promise<string | undefined> {
  for await (const run of link.client.workflow.list({ query: `WorkflowType = 'compareRun'` })) {
    const id = run.searchAttributes?.LlmEvalsRunId;
    if (Array.isArray(id) && typeof id[0] === 'string') return id[0];
  }
  return undefined;
}

/** Progress from the run's queries when a worker answers, else counted from the results in the experiments' histories. */
async function progressOf(
  link: TemporalLink,
  runId: string,
  record: RunRecord,
): Promise<RunProgress & { live: boolean }> {
  if (!record.closed) {
    try {
      const live = await link.client.connection.withDeadline(Date.now() + 3000, () =>
        queryProgress(link.client, runId),
      );
      return { ...live, live: true };
    } catch {
      // No worker is serving the run now; count what Temporal already holds.
    }
  }
  const { input } = record;
  const results = await fetchResults(
    link.client,
    runId,
    input.experiments.map((e) => e.id),
  );
  return {
    runId,
    live: false,
    experiments: input.experiments.map((e) => {
      const mine = results.filter((r) => r.experimentId === e.id);
      const total = input.datasets[e.dataset]!.length;
      const state = mine.length >= total ? 'completed' : mine.length > 0 ? 'running' : 'pending';
      return {
        id: e.id,
        total,
        done: mine.length,
        errors: mine.filter((r) => r.status !== 'scored').length,
        state,
      };
    }),
  };
}

function describeState(record: RunRecord): string {
  const states: Record<string, string> = {
    RUNNING: 'running',
    COMPLETED: 'completed',
    FAILED: 'failed',
    CANCELLED: 'cancelled',
    TERMINATED: 'terminated',
    TIMED_OUT: 'failed',
  };
  return states[record.status] ?? record.status.toLowerCase();
}

/** `status [RUN]` (D4): per experiment done/total, errors and state; the run's state, ETA and Temporal UI link. */
export async function statusCommand(runArg: string | undefined, flags: StatusFlags, io: Io): Promise<number> {
  const link = await linkForCommand(projectOf(flags, io), io, 'status');
  try {
    const runId = runArg ?? (await latestRun(link));
    if (!runId) {
      io.stdout.write('no runs yet\n');
      return 0;
    }
    for (;;) {
      const record = await readRun(link.client, runId);
      const progress = await progressOf(link, runId, record);
      const done = progress.experiments.reduce((n, e) => n + e.done, 0);
      const total = progress.experiments.reduce((n, e) => n + e.total, 0);
      const elapsed = (Date.now() - Date.parse(record.header.createdAt)) / 1000;
      const eta = !record.closed && done > 0 ? ((total - done) * elapsed) / done : null;
      // Paused and aborted live in the gate; its query needs a worker, so without one the workflow's status stands.
      const gate = record.closed ? undefined : await readGate(link, runId);
      const state = gate && gate.state !== 'running' ? gate.state : describeState(record);
      const ui = link.uiUrl
        ? `${link.uiUrl}/namespaces/${link.namespace}/workflows/${encodeURIComponent(runWorkflowId(runId))}`
        : undefined;
      if (flags.json) {
        io.stdout.write(
          JSON.stringify(
            {
              runId,
              suite: record.header.suite.name,
              state,
              done,
              total,
              eta,
              ui,
              experiments: progress.experiments,
            },
            null,
            2,
          ) + '\n',
        );
      } else {
        const contenders = record.input.contenders;
        const rows = record.input.experiments.map((e, i) => {
          const p = progress.experiments[i]!;
          const c = contenders[e.contender]!;
          return [
            e.id,
            c.id,
            c.effort,
            e.dataset,
            `${p.done}/${p.total}`,
            p.errors ? pc.red(String(p.errors)) : '0',
            p.state,
          ];
        });
        io.stdout.write(
          `run ${pc.bold(runId)} (${record.header.suite.name}): ${state}, ${done}/${total} cases, ` +
            `${formatSeconds(elapsed)} elapsed${eta !== null ? `, ETA ${formatSeconds(eta)}` : ''}` +
            `${progress.live ? '' : pc.dim(' (no worker is serving it now)')}\n` +
            renderTable(
              ['experiment', 'model', 'effort', 'dataset', 'done', 'errors', 'state'].map((header) => ({
                header,
                key: header === 'experiment',
              })),
              rows,
              { width: io.columns },
            ) +
            '\n' +
            (ui ? `Temporal UI: ${ui}\n` : ''),
        );
      }
      if (!flags.watch || record.closed) return ['completed', 'running', 'paused'].includes(state) ? 0 : 1;
      await sleep(1000);
    }
  } finally {
    await link.close();
  }
}
