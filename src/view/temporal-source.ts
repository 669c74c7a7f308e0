import { diffRuns, type RunChange, type RunDigest } from '../core/run-change.ts';
import { runStateOf } from '../core/run-state.ts';
import { scheduleIdPrefix } from '../core/schedule-spec.ts';
import { buildSnapshot, type Snapshot } from '../core/snapshot.ts';
import { contenderName } from '../report/columns.ts';
import { formatPercent } from '../report/format.ts';
import { standings } from '../report/standings.ts';
import { cancelLeftBatches } from '../session/cancel-batches.ts';
import { collectSnapshot } from '../session/collect.ts';
import { summarizeRun } from '../session/run-summaries.ts';
import { scheduleShow } from '../session/schedule-view.ts';
import type { TemporalLink } from '../client/connect.ts';
import type { RunListing, RunRecord } from '../client/runs.ts';
import { caseFlips } from './flips.ts';
import { keep, resultsIn } from './keep.ts';
import type {
  CancelDone,
  RunLine,
  RunRow,
  RunView,
  RunsFacets,
  RunsFilter,
  RunsPage,
  ScheduleView,
  ViewSource,
} from './model.ts';
import { countedProgress } from './progress.ts';
import { projectSuite, type CasesOf } from './projects.ts';

/** Runs per page of the runs list. */
export const RUNS_PER_PAGE = 50;

/** Runs counted at once for the list: each reads its experiments' histories, and all at once held them all in memory. */
const COUNTING_AT_ONCE = 4;

/** Results that the kept snapshots of closed runs may hold in all (one of 20,000 results is some 30 MB). */
const KEPT_RESULTS = 30_000;

/** Finished runs' digests kept for the schedule pages' flips (a schedule page reads its last ten). */
const KEPT_DIGESTS = 40;

/** How long the filters' values (every run's project, suite and schedule) are kept before they are read again. */
const FACETS_MS = 30_000;

/** The best contender of a snapshot so far, with its ranking value. */
function bestOf(snapshot: Snapshot): RunRow['best'] {
  const s = standings(snapshot);
  const best = s.overall.best;
  return best
    ? { name: contenderName(best.contender), value: `${formatPercent(best.rank)} ${s.ranking}` }
    : undefined;
}

/** A schedule's name from its id, which is the project's prefix and the name. */
function scheduleName(project: string, scheduleId: string): string {
  const prefix = scheduleIdPrefix(project);
  return scheduleId.startsWith(prefix) ? scheduleId.slice(prefix.length) : scheduleId;
}

/** A run's line from its listing alone: what visibility says, before its results are counted. */
function lineOf(l: RunListing, now: Date): RunLine {
  const project = l.project ?? '';
  return {
    runId: l.runId,
    suite: l.suite,
    project,
    state: l.state,
    duration: ((l.closedAt ?? now).getTime() - l.startedAt.getTime()) / 1000,
    startedAt: l.startedAt.toISOString(),
    ...(l.closedAt ? { closedAt: l.closedAt.toISOString() } : {}),
    ...(l.scheduleId ? { schedule: scheduleName(project, l.scheduleId) } : {}),
  };
}

/** The filters' values: those known, and those of `listings`, sorted. */
function facetsFrom(known: RunsFacets, listings: readonly RunListing[]): RunsFacets {
  const projects = new Set(known.projects);
  const suites = new Set(known.suites);
  const schedules = new Map(known.schedules.map((s) => [s.id, s.name]));
  for (const l of listings) {
    if (l.project) projects.add(l.project);
    if (l.suite) suites.add(l.suite);
    if (l.scheduleId) schedules.set(l.scheduleId, scheduleName(l.project ?? '', l.scheduleId));
  }
  return {
    projects: [...projects].sort(),
    suites: [...suites].sort(),
    schedules: [...schedules]
      .map(([id, name]) => ({ id, name }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** Maps `items` through `f`, at most `limit` at once, in order. */
async function mapLimited<T, U>(
  items: readonly T[],
  limit: number,
  f: (item: T) => Promise<U>,
): Promise<U[]> {
  const out: U[] = new Array<U>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/**
 * The view's runs from Temporal, through the client room and the session's snapshot builder: no worker needed, no
 * model called, nothing written. A closed run's line and snapshot never change, so they are kept.
 */
export class TemporalSource implements ViewSource {
  private readonly closedRows = new Map<string, RunRow>();
  private readonly snapshots = new Map<string, RunView>();
  private readonly digests = new Map<string, Promise<RunDigest>>();
  private facets: RunsFacets = { projects: [], suites: [], schedules: [] };
  /** When the filters' values were last read in full (0: never, or the read failed). */
  private facetsRead = 0;

  constructor(
    private readonly link: TemporalLink,
    private readonly casesOf: CasesOf,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  async runs(filter: RunsFilter, count = true): Promise<RunsPage> {
    // Visibility lists newest first: read only as far as this page and one more run, which says an older page exists.
    const wanted = (filter.page + 1) * RUNS_PER_PAGE + 1;
    const listings: RunListing[] = [];
    // Without a state to filter by, visibility need send no more than that.
    const options = {
      ...(filter.project ? { project: filter.project } : {}),
      ...(filter.suite ? { suite: filter.suite } : {}),
      ...(filter.schedule ? { scheduleId: filter.schedule } : {}),
      ...(filter.state ? {} : { limit: wanted }),
    };
    for await (const l of this.link.runs.list(options)) {
      // Paused and aborted-but-open runs show as running in visibility: their line says which.
      const could = filter.state === 'paused' || filter.state === 'aborted' ? 'running' : filter.state;
      if (!could || l.state === could || l.state === filter.state) listings.push(l);
      if (listings.length >= wanted) break;
    }
    const start = filter.page * RUNS_PER_PAGE;
    const shown = listings.slice(start, start + RUNS_PER_PAGE);
    // Whether a running run is paused is known only once counted (its gate is asked): such a filter counts at once.
    const counting = count || filter.state === 'paused' || filter.state === 'aborted';
    const now = new Date();
    // A run that cannot be read (gone meanwhile, not one of ours after all) is left off the page rather than failing it.
    const read = counting
      ? await mapLimited(shown, COUNTING_AT_ONCE, (l) => this.counted(l).catch(() => undefined))
      : shown.map((l) => this.closedRows.get(l.runId) ?? lineOf(l, now));
    let rows = read.filter((r): r is RunRow | RunLine => r !== undefined);
    if (filter.state) rows = rows.filter((r) => r.state === filter.state);
    return {
      rows,
      more: listings.length >= wanted,
      pageSize: RUNS_PER_PAGE,
      facets: this.facetsOf(listings),
    };
  }

  /**
   * The filters' values: those of this page's runs at once, with every run's project, suite and schedule as the last
   * full listing found them. That listing (every run, decoded) is made in the background, again once it is
   * older than FACETS_MS, so no page waits for it.
   */
  private facetsOf(listings: readonly RunListing[]): RunsFacets {
    if (!this.facetsRead || Date.now() - this.facetsRead > FACETS_MS) {
      this.facetsRead = Date.now();
      // After this page is answered: the full listing's decoding would hold it up.
      setTimeout(() => void this.readFacets().catch(() => (this.facetsRead = 0)), 0);
    }
    return facetsFrom(this.facets, listings);
  }

  private async readFacets(): Promise<void> {
    const listings: RunListing[] = [];
    for await (const l of this.link.runs.list()) listings.push(l);
    this.facets = facetsFrom({ projects: [], suites: [], schedules: [] }, listings);
  }

  async row(runId: string): Promise<RunRow | undefined> {
    // As the counted list does, a run that cannot be read (gone meanwhile, not one of ours after all) has no line.
    return this.counted({ runId, suite: '' }).catch(() => undefined);
  }

  private async counted(listing: Pick<RunListing, 'runId' | 'suite'>): Promise<RunRow> {
    const kept = this.closedRows.get(listing.runId);
    if (kept) return kept;
    const { summary, record, results } = await summarizeRun(this.link, listing);
    const best = bestOf(
      buildSnapshot(
        {
          runId: listing.runId,
          header: record.header,
          input: record.input,
          status: 'partial',
          results,
          cases: [],
          finishedAt: '',
        },
        { statistics: false },
      ),
    );
    const row: RunRow = {
      ...summary,
      suite: record.header.suite.name,
      project: record.header.suite.project,
      ...(best ? { best } : {}),
      ...(record.header.schedule ? { schedule: record.header.schedule.name } : {}),
    };
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
    if (record.closed) keep(this.snapshots, runId, view, KEPT_RESULTS, resultsIn);
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

  async cancel(runId: string): Promise<CancelDone> {
    const how = await this.link.runs.cancel(runId);
    // As `llm-evals cancel` run in the run's project: its endpoints, its env files' keys over this process's (on a
    // copy, so one project's keys never reach another's batches).
    const project = (await this.read(runId))?.header.suite.project;
    const find = async () => (project === undefined ? undefined : projectSuite(project));
    return { how, ...(await cancelLeftBatches(this.link, runId, find, { ...this.env })) };
  }

  async answer(runId: string, goOn: boolean): Promise<void> {
    await this.link.runs.answerPause(runId, goOn);
  }

  async diff(a: string, b: string): Promise<RunChange> {
    const [before, after] = await Promise.all([this.link.runs.digest(a), this.link.runs.digest(b)]);
    return diffRuns(before, after);
  }

  async schedule(project: string, name: string): Promise<ScheduleView | undefined> {
    let show;
    try {
      show = await scheduleShow(this.link, project, name);
    } catch (error) {
      if ((error as { exitCode?: number }).exitCode === 2) return undefined;
      throw error;
    }
    // The finished runs, oldest first: a case flips between them; a cancelled or failed run says nothing of a case.
    const finished = show.runs
      .filter((r) => r.state === 'completed' || r.state === 'regressed')
      .map((r) => r.runId)
      .reverse();
    const digests = await mapLimited(finished, COUNTING_AT_ONCE, (runId) => this.digest(runId));
    return { show, flips: caseFlips(digests), flipRuns: finished };
  }

  reachable(): Promise<boolean> {
    return this.link.runs.reachable();
  }

  /** A finished run's digest, kept: it never changes. */
  private async digest(runId: string): Promise<RunDigest> {
    let digest = this.digests.get(runId);
    if (!digest) {
      digest = this.link.runs.digest(runId);
      digest.catch(() => this.digests.delete(runId));
      keep(this.digests, runId, digest, KEPT_DIGESTS, () => 1);
    }
    return digest;
  }
}
