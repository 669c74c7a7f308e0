import { datasetSize } from '../core/run-input.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { silentOf } from '../client/silence.ts';
import { silenceLines } from '../report/silence-line.ts';
import { projectOf } from '../session/open-suite.ts';
import type { StatusFlags } from '../cli/options.ts';
import type { GateState } from '../core/coordinator.ts';
import { missingKeysOf, type MissingKey } from '../core/missing-key.ts';
import type { BatchWait, RunProgress } from '../core/progress.ts';
import { diffRuns, type RunChange } from '../core/run-change.ts';
import { runStateOf } from '../core/run-state.ts';
import { contenderName } from '../report/columns.ts';
import { renderChange, renderRegression } from '../report/change.ts';
import { renderBatchWait } from '../report/batch-wait.ts';
import { formatSeconds } from '../report/format.ts';
import { renderTable } from '../report/table.ts';
import { linkForCommand, runPage } from '../session/link.ts';
import type { TemporalLink } from '../client/connect.ts';
import type { RunRecord, RunResult } from '../client/runs.ts';
import { countedProgress } from '../session/serve.ts';
import { buildLine } from '../session/build-line.ts';
import { suitePlaceOf } from './request.ts';

/**
 * Progress from the run's queries when a worker answers; from the counts a completed run returned; else counted from
 * the results in the experiments' histories (a cancelled run returned nothing).
 */
async function progressOf(
  link: TemporalLink,
  runId: string,
  record: RunRecord,
  outcome: RunResult | undefined,
  served: boolean,
): Promise<RunProgress & { live: boolean }> {
  if (served) {
    try {
      return { ...(await link.runs.progress(runId, 3000)), live: true };
    } catch {
      // No worker is serving the run now; count what Temporal already holds.
    }
  }
  // Reading every result of a large run takes seconds (a million results: 24 s); its own counts are at hand.
  const counted = outcome && countedProgress(runId, record.input, outcome);
  if (counted) return { ...counted, live: false };
  const { input } = record;
  const results = await link.runs.results(
    runId,
    input.experiments.map((e) => e.id),
  );
  // A `--batch` run waits on its batches with no worker up: its histories say which.
  const running = input.experiments.filter((e) => !results.some((r) => r.experimentId === e.id));
  const waits =
    input.batch && !record.closed
      ? await link.runs.batchWaits(
          runId,
          running.map((e) => e.id),
        )
      : new Map<string, BatchWait>();
  return {
    runId,
    live: false,
    experiments: input.experiments.map((e) => {
      const mine = results.filter((r) => r.experimentId === e.id);
      const total = datasetSize(input, e.dataset);
      // An unfinished experiment of a closed run ran no further: the run's end (cancelled, or stopped) is its own.
      const unfinished = !record.closed
        ? mine.length > 0
          ? ('running' as const)
          : ('pending' as const)
        : runStateOf(record.status) === 'cancelled'
          ? ('cancelled' as const)
          : ('stopped' as const);
      const state = mine.length >= total ? 'completed' : unfinished;
      return {
        id: e.id,
        total,
        done: mine.length,
        errors: mine.filter((r) => r.status !== 'scored').length,
        state,
        ...(waits.has(e.id) ? { batch: waits.get(e.id)! } : {}),
      };
    }),
  };
}

/** A scheduled run's change since its schedule's previous run, once it closed; none for other runs. */
async function changeOf(
  link: TemporalLink,
  runId: string,
  record: RunRecord,
): Promise<RunChange | undefined> {
  const previous = record.header.schedule?.previousRunId;
  if (!previous || !record.closed) return undefined;
  const [before, after] = await Promise.all([
    link.runs.digest(previous).catch(() => undefined),
    link.runs.digest(runId),
  ]);
  return before ? diffRuns(before, after) : undefined;
}

/** Seconds waited per key (rate limits and `max_concurrency` queues), to a tenth; `null` when the gate is not known. */
function waitsOf(gate: GateState | undefined): Record<string, number> | null {
  if (!gate) return null;
  return Object.fromEntries(
    Object.entries(gate.waited)
      .filter(([, seconds]) => seconds > 0)
      .map(([key, seconds]) => [key, Math.round(seconds * 10) / 10]),
  );
}

/** `waited: solo 6.50s, openrouter/acme 1.20s`, a line; nothing when no call waited. */
function renderWaits(waited: Record<string, number> | null): string {
  const parts = Object.entries(waited ?? {}).map(([key, seconds]) => `${key} ${formatSeconds(seconds)}`);
  return parts.length ? `waited: ${parts.join(', ')}\n` : '';
}

/**
 * `waiting: no worker … has KEY for contender` (or knows its provider), a line each: why a served run's cases are not
 * called, and what to start so that they are.
 */
function renderMissing(missing: readonly MissingKey[]): string {
  return missing
    .map((m) =>
      'envVar' in m
        ? pc.yellow(`waiting: no worker serving it has ${m.envVar} for ${m.contender}`) +
          ` (start \`llm-evals worker\` where ${m.envVar} is set)\n`
        : pc.yellow(`waiting: no worker serving it knows provider ${m.provider} for ${m.contender}`) +
          ` (start \`llm-evals worker\` in a project whose config or helper defines ${m.provider})\n`,
    )
    .join('');
}

/** A line per experiment waiting on its batch (a `--batch` run). */
function batchWaits(experiments: readonly { id: string; batch?: BatchWait }[]): string {
  return experiments
    .flatMap((e) => (e.batch ? [`${e.id}: ${renderBatchWait(e.batch, Date.now())}\n`] : []))
    .join('');
}

/** `status [RUN]`: per experiment done/total, errors and state; the run's state, time, ETA and Temporal UI link. */
export async function statusCommand(runArg: string | undefined, flags: StatusFlags, io: Io): Promise<number> {
  const project = projectOf(suitePlaceOf(flags), io);
  const link = await linkForCommand(project, io, 'status');
  try {
    const runId = runArg ?? (await link.runs.latest(project)) ?? (await link.runs.latest());
    if (!runId) {
      io.stdout.write('no runs yet\n');
      return 0;
    }
    for (;;) {
      const record = await link.runs.read(runId);
      const outcome = record.status === 'COMPLETED' ? await link.runs.outcome(runId) : undefined;
      // A run no worker polls for answers no query: asking would wait out two deadlines (5 s) for nothing.
      const served = !record.closed && (await link.runs.polled(record.taskQueue));
      const progress = await progressOf(link, runId, record, outcome, served);
      const done = progress.experiments.reduce((n, e) => n + e.done, 0);
      const total = progress.experiments.reduce((n, e) => n + e.total, 0);
      const end = record.closedAt ?? new Date();
      const elapsed = (end.getTime() - record.startedAt.getTime()) / 1000;
      // An ETA only while a worker serves the run: without one, nothing moves.
      const eta = !record.closed && progress.live && done > 0 ? ((total - done) * elapsed) / done : null;
      const gate = served ? await link.runs.gate(runId) : undefined;
      // Cases sent back by workers without a contender's key: they told the gate, which keeps their word a while.
      const missing = gate ? missingKeysOf(gate, Date.now()) : [];
      // Waits on limits and for places in flight: the gate's, live, or as it ended.
      const waited = waitsOf(gate ?? (record.closed ? await link.runs.finalGate(runId) : undefined));
      const state = runStateOf(record.status, outcome?.state, gate?.state);
      // Calls out and none answered for long: a provider that hangs, which neither fails nor finishes anything.
      const silent =
        served && state === 'running' ? await silentOf(link.client, runId, record.input).catch(() => []) : [];
      const change = await changeOf(link, runId, record);
      const regression = outcome?.regression ?? [];
      const schedule = record.header.schedule;
      const ui = runPage(link, runId);
      // A pinned run is served only by workers of its build (Worker Versioning): whether any polls now.
      const pollers =
        record.build && !record.closed ? await link.runs.buildPollers(record.taskQueue, record.build) : [];
      const build = record.build ? { ...record.build, polling: pollers.length } : undefined;
      if (flags.json) {
        const fields = {
          runId,
          suite: record.header.suite.name,
          state,
          done,
          total,
          elapsed,
          eta,
          waited,
          ...(missing.length ? { waitingFor: missing } : {}),
          ...(silent.length ? { notAnswering: silent } : {}),
          ...(build ? { build } : {}),
          ui,
        };
        const scheduled = schedule ? { schedule: schedule.name, change: change ?? null, regression } : {};
        io.stdout.write(
          JSON.stringify({ ...fields, experiments: progress.experiments, ...scheduled }, null, 2) + '\n',
        );
      } else {
        const contenders = record.input.contenders;
        const rows = record.input.experiments.map((e, i) => {
          const p = progress.experiments[i]!;
          const c = contenders[e.contender]!;
          const errors = p.errors ? pc.red(String(p.errors)) : '0';
          return [e.id, contenderName(c), e.dataset, `${p.done}/${p.total}`, errors, p.state];
        });
        const time = record.closed ? `took ${formatSeconds(elapsed)}` : `${formatSeconds(elapsed)} elapsed`;
        const idle = progress.live || record.closed ? '' : pc.dim(' (no worker is serving it now)');
        io.stdout.write(
          `run ${pc.bold(runId)} (${record.header.suite.name}): ${state}, ${done}/${total} cases, ${time}` +
            `${eta !== null ? `, ETA ${formatSeconds(eta)}` : ''}${idle}\n` +
            (build ? buildLine(build, record.closed) : '') +
            renderMissing(missing) +
            silenceLines(silent, Date.now())
              .map((line) => line + '\n')
              .join('') +
            renderTable(
              ['experiment', 'contender', 'dataset', 'done', 'errors', 'state'].map((header) => ({
                header,
                key: header === 'experiment',
              })),
              rows,
              { width: io.columns },
            ) +
            '\n' +
            batchWaits(progress.experiments) +
            renderWaits(waited) +
            (schedule ? `a run of schedule ${pc.bold(schedule.name)}\n` : '') +
            (change ? renderChange(change, { width: io.columns }) + '\n' : '') +
            (regression.length ? renderRegression(regression) + '\n' : '') +
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
