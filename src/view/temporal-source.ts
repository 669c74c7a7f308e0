import { diffRuns, type RunChange } from '../core/run-change.ts';
import { runStateOf } from '../core/run-state.ts';
import { buildSnapshot, type Snapshot } from '../core/snapshot.ts';
import { contenderName } from '../report/columns.ts';
import { formatPercent } from '../report/format.ts';
import { standings } from '../report/standings.ts';
import type { ScheduleShow } from '../report/schedule-text.ts';
import { collectSnapshot } from '../session/collect.ts';
import { summarizeRun } from '../session/run-summaries.ts';
import { scheduleShow } from '../session/schedule-view.ts';
import type { TemporalLink } from '../client/connect.ts';
import type { RunListing, RunRecord } from '../client/runs.ts';
import type { RunRow, RunView, RunsFilter, RunsPage, ViewSource } from './model.ts';
import { countedProgress } from './progress.ts';
import type { CasesOf } from './projects.ts';

/** Runs per page of the runs list. */
export const RUNS_PER_PAGE = 50;

/** Closed runs' snapshots kept to answer again without reading their histories. */
const KEPT_SNAPSHOTS = 8;

/** The best contender of a snapshot so far, with its ranking value. */
function bestOf(snapshot: Snapshot): RunRow['best'] {
  const s = standings(snapshot);
  const best = s.overall.best;
  return best
    ? { name: contenderName(best.contender), value: `${formatPercent(best.rank)} ${s.ranking}` }
    : undefined;
}

/**
 * The view's runs from Temporal, through the client room and the session's snapshot builder: no worker needed, no
 * model called, nothing written. A closed run's line and snapshot never change, so they are kept.
 */
export class TemporalSource implements ViewSource {
  private readonly closedRows = new Map<string, RunRow>();
  private readonly snapshots = new Map<string, RunView>();
  private readonly projects = new Set<string>();

  constructor(
    private readonly link: TemporalLink,
    private readonly casesOf: CasesOf,
  ) {}

  async runs(filter: RunsFilter): Promise<RunsPage> {
    // Visibility lists newest first: read only as far as this page and one more run, which says an older page exists.
    const wanted = (filter.page + 1) * RUNS_PER_PAGE + 1;
    const listings: RunListing[] = [];
    // Without a state to filter by, visibility need send no more than that.
    const options = {
      ...(filter.project ? { project: filter.project } : {}),
      ...(filter.state ? {} : { limit: wanted }),
    };
    for await (const l of this.link.runs.list(options)) {
      // Paused and aborted-but-open runs show as running in visibility: their line says which.
      const could = filter.state === 'paused' || filter.state === 'aborted' ? 'running' : filter.state;
      if (!could || l.state === could || l.state === filter.state) listings.push(l);
      if (listings.length >= wanted) break;
    }
    const start = filter.page * RUNS_PER_PAGE;
    // A run that cannot be read (gone meanwhile, not one of ours after all) is left off the page rather than failing it.
    const read = await Promise.all(
      listings.slice(start, start + RUNS_PER_PAGE).map((l) => this.row(l).catch(() => undefined)),
    );
    let rows = read.filter((r): r is RunRow => r !== undefined);
    if (filter.state) rows = rows.filter((r) => r.state === filter.state);
    return {
      rows,
      more: listings.length >= wanted,
      pageSize: RUNS_PER_PAGE,
      projects: [...this.projects],
    };
  }

  private async row(listing: RunListing): Promise<RunRow> {
    const kept = this.closedRows.get(listing.runId);
    if (kept) return kept;
    const { summary, record, results } = await summarizeRun(this.link, listing);
    const best = bestOf(
      buildSnapshot({
        runId: listing.runId,
        header: record.header,
        input: record.input,
        status: 'partial',
        results,
        cases: [],
        finishedAt: '',
      }),
    );
    const row: RunRow = {
      ...summary,
      suite: record.header.suite.name,
      project: record.header.suite.project,
      ...(best ? { best } : {}),
      ...(record.header.schedule ? { schedule: record.header.schedule.name } : {}),
    };
    this.projects.add(row.project);
    if (record.closed) this.closedRows.set(listing.runId, row);
    return row;
  }

  async run(runId: string): Promise<RunView | undefined> {
    const kept = this.snapshots.get(runId);
    if (kept) return kept;
    const record = await this.read(runId);
    if (!record) return undefined;
    const cases = await this.casesOf(record.header.suite.project).catch(() => []);
    const snapshot = await collectSnapshot(this.link, cases, runId, record);
    const gate = record.closed ? undefined : await this.link.runs.gate(runId, 500);
    const state = runStateOf(record.status, snapshot.status, gate?.state);
    let experiments = countedProgress(snapshot, state, record.closed);
    let live = false;
    if (!record.closed) {
      try {
        experiments = (await this.link.runs.progress(runId, 1500)).experiments;
        live = true;
      } catch {
        // No worker serves the run now: the counts come from the histories.
      }
    }
    const view: RunView = { snapshot, state, experiments, live, closed: record.closed };
    if (record.closed) {
      this.snapshots.set(runId, view);
      if (this.snapshots.size > KEPT_SNAPSHOTS) this.snapshots.delete(this.snapshots.keys().next().value!);
    }
    return view;
  }

  async live(runId: string): Promise<RunView | undefined> {
    if (this.snapshots.has(runId)) return this.run(runId);
    const record = await this.read(runId);
    if (!record || record.closed) return this.run(runId);
    let experiments;
    try {
      experiments = (await this.link.runs.progress(runId, 1500)).experiments;
    } catch {
      return this.run(runId);
    }
    const gate = await this.link.runs.gate(runId, 500);
    const snapshot = buildSnapshot({
      runId,
      header: record.header,
      input: record.input,
      status: 'partial',
      results: [],
      cases: [],
      finishedAt: new Date().toISOString(),
    });
    const state = runStateOf(record.status, undefined, gate?.state);
    return { snapshot, state, experiments, live: true, closed: false };
  }

  /** A run's record, or `undefined` when Temporal holds no such run. */
  private async read(runId: string): Promise<RunRecord | undefined> {
    try {
      return await this.link.runs.read(runId);
    } catch (error) {
      if ((error as { exitCode?: number }).exitCode === 2) return undefined;
      throw error;
    }
  }

  async cancel(runId: string): Promise<'cancelled' | 'terminated'> {
    return this.link.runs.cancel(runId);
  }

  async answer(runId: string, goOn: boolean): Promise<void> {
    await this.link.runs.answerPause(runId, goOn);
  }

  async diff(a: string, b: string): Promise<RunChange> {
    const [before, after] = await Promise.all([this.link.runs.digest(a), this.link.runs.digest(b)]);
    return diffRuns(before, after);
  }

  async schedule(project: string, name: string): Promise<ScheduleShow | undefined> {
    try {
      return await scheduleShow(this.link, project, name);
    } catch (error) {
      if ((error as { exitCode?: number }).exitCode === 2) return undefined;
      throw error;
    }
  }
}
