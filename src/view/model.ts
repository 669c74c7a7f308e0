import type { BatchCancelWords } from '../core/batch-cancel.ts';
import type { ExperimentStatus } from '../core/progress.ts';
import type { RunChange } from '../core/run-change.ts';
import type { RunState } from '../core/run-state.ts';
import type { RunSummary } from '../core/run-summary.ts';
import type { Snapshot } from '../core/snapshot.ts';
import type { ScheduleShow } from '../report/schedule-text.ts';
import type { CaseFlips } from './flips.ts';

/** One line of the runs list: a run's summary, as `runs` shows it, with its project and best contender so far. */
export interface RunRow extends RunSummary {
  /** The project folder the run was started from. */
  project: string;
  /** The best contender's name and its ranking value, once a case is scored. */
  best?: { name: string; value: string };
  /** The schedule that started it, if one did: its name. */
  schedule?: string;
}

/**
 * A run's line as visibility alone gives it (one listing page for the whole list), before its results are counted:
 * the list answers with these at once, and its script fetches the counted rows.
 */
export type RunLine = Omit<RunRow, 'done' | 'total' | 'errors' | 'costUsd' | 'best'>;

/** Whether a line of the list has its results counted. */
export function isCounted(line: RunRow | RunLine): line is RunRow {
  return 'total' in line;
}

/** What the runs list is asked for: a project, a suite, a schedule (its id), a state, a page (from 0). */
export interface RunsFilter {
  project?: string;
  suite?: string;
  /** A schedule's id (it carries the project and the name). */
  schedule?: string;
  state?: RunState;
  page: number;
}

/** The values the runs list's filters offer: those seen on this Temporal so far. */
export interface RunsFacets {
  projects: string[];
  suites: string[];
  /** Schedules by id, with the name a user knows them by. */
  schedules: { id: string; name: string }[];
}

/** One page of the runs list, with the values known so far for the filters. */
export interface RunsPage {
  rows: (RunRow | RunLine)[];
  /** Older runs match the filter too, on the next page. */
  more: boolean;
  pageSize: number;
  facets: RunsFacets;
}

/** A run as its page shows it: its snapshot so far, its state and each experiment's progress. */
export interface RunView {
  snapshot: Snapshot;
  state: RunState;
  experiments: ExperimentStatus[];
  /** A worker answered the progress query just now (else the counts come from the histories). */
  live: boolean;
  /** The run has closed: nothing on its page changes any more. */
  closed: boolean;
  /** Set when the page shows a saved snapshot file rather than Temporal's data: read-only. */
  saved?: string;
}

/** A schedule as its page shows it: what `schedule show` gathers, and the cases that flip over its finished runs. */
export interface ScheduleView {
  show: ScheduleShow;
  flips: CaseFlips[];
  /** The finished runs the flips were counted over, oldest first. */
  flipRuns: string[];
}

/** Where a page's links start: a run in Temporal (`/runs/ID`) or a saved snapshot (`/saved/FILE`). */
export type RunBase = string;

/** What a cancel did: how the run closed (its worker closed it, or Temporal ended it), and its batches' fate. */
export interface CancelDone extends BatchCancelWords {
  how: 'cancelled' | 'terminated';
}

/** What the view reads runs through: Temporal (through the client room) or, when it is down, nothing. */
export interface ViewSource {
  /** A page of the runs list; `count: false` answers from visibility alone (lines not counted yet, unless kept). */
  runs(filter: RunsFilter, count?: boolean): Promise<RunsPage>;
  /** One run's counted line of the runs list (the list's script fills its lines one by one); none when unreadable. */
  row(runId: string): Promise<RunRow | undefined>;
  /** A run's view; `undefined` when Temporal holds no such run. */
  run(runId: string): Promise<RunView | undefined>;
  /**
   * A run's progress for its page's refresh: while a worker answers, from its progress query alone (no history read,
   * the view's snapshot carrying no results); else, and once closed, as run() says.
   */
  live(runId: string): Promise<RunView | undefined>;
  /**
   * Cancels a run as `llm-evals cancel` does: waits for its worker to close it (Temporal ends it when none serves
   * it), then cancels at their providers the batches it left waiting, with the run's project's endpoints and keys.
   */
  cancel(runId: string): Promise<CancelDone>;
  /** Answers a paused run, as `llm-evals continue` / `stop` do. */
  answer(runId: string, goOn: boolean): Promise<void>;
  /** The change from run `a` to run `b`, as `llm-evals diff` computes it. */
  diff(a: string, b: string): Promise<RunChange>;
  /** A project's schedule as `schedule show` gathers it, with its flipping cases; `undefined` when there is none. */
  schedule(project: string, name: string): Promise<ScheduleView | undefined>;
  /** Whether its Temporal answers now: asked when a request failed, to tell Temporal gone from a bug. */
  reachable(): Promise<boolean>;
}
