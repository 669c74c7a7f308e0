import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  type Client,
  type ScheduleDescription,
  type ScheduleHandle,
  type ScheduleOverlapPolicy,
} from '@temporalio/client';
import type { Json } from '../api/types.ts';
import {
  intervalOffset,
  parseEvery,
  scheduleIdFor,
  scheduleIdPrefix,
  type ScheduledRunSpec,
  type ScheduleView,
} from '../core/schedule-spec.ts';
import type { Trend } from '../core/run-change.ts';
import { ConfigError } from '../errors.ts';
import {
  EMBEDDED_RETENTION_DAYS,
  ensureRetention,
  ensureSearchAttribute,
  retentionDays,
} from './namespace.ts';
import type { Runs } from './runs.ts';
import {
  fireProblems,
  previousScheduledRun,
  scheduledRuns,
  scheduleTrend,
  type FireProblem,
  type ScheduledRunListing,
} from './schedule-runs.ts';
import { pollersOf, type Poller } from './pollers.ts';

/** What a schedule does when a fire comes while the previous run still goes (`--overlap`); skip by default. */
export const OVERLAPS = {
  skip: 'SKIP',
  'buffer-one': 'BUFFER_ONE',
  'buffer-all': 'BUFFER_ALL',
  'cancel-other': 'CANCEL_OTHER',
  'terminate-other': 'TERMINATE_OTHER',
  'allow-all': 'ALLOW_ALL',
} as const satisfies Record<string, ScheduleOverlapPolicy>;
/** An overlap policy as `--overlap` names it. */
export type Overlap = keyof typeof OVERLAPS;

/** A schedule to create: when it fires, what it plans with, and the bar its runs must clear. */
export interface NewSchedule {
  name: string;
  project: string;
  suite: string;
  taskQueue: string;
  /** `--every` as typed (`1w`), or `--cron` (`0 3 * * 1`), with `--timezone` for the cron. */
  every?: string;
  cron?: string;
  timezone?: string;
  overlap: Overlap;
  catchupWindowMs: number;
  flags: Record<string, Json>;
  maxDrop?: number;
  minScore?: number;
}

/** What a schedule's memo keeps, so `schedule show` prints it as the user wrote it. */
interface ScheduleMemo {
  name: string;
  project: string;
  suite: string;
  every?: string;
  cron?: string;
  timezone?: string;
}

function whenOf(memo: ScheduleMemo): string {
  if (memo.every) return `every ${memo.every}`;
  return `cron ${memo.cron ?? '?'}${memo.timezone ? ` (${memo.timezone})` : ''}`;
}

/**
 * Every client-side operation on schedules, on Temporal Schedules: create, list, describe, pause, unpause,
 * trigger, backfill, delete. A schedule's id carries its project and name, so commands only ever name it.
 */
export class Schedules {
  constructor(
    readonly client: Client,
    private readonly runs: Runs,
  ) {}

  /**
   * Readies the namespace for schedules: the `LlmEvalsSchedule` search attribute, and on the embedded server a
   * retention long enough to keep the runs a schedule compares with. Elsewhere it only warns when the namespace
   * forgets a run before the next fire.
   */
  async prepare(embedded: boolean, periodMs?: number): Promise<string[]> {
    await ensureSearchAttribute(this.client, 'LlmEvalsSchedule');
    if (embedded) {
      await ensureRetention(this.client, EMBEDDED_RETENTION_DAYS);
      return [];
    }
    const days = await retentionDays(this.client);
    if (periodMs === undefined || days * 86_400_000 >= 2 * periodMs) return [];
    return [
      `namespace ${this.client.options.namespace} keeps closed runs ${days} day(s): a run may be gone before the ` +
        'next fire compares with it (raise it: temporal operator namespace update --retention 30d)',
    ];
  }

  /** A schedule's runs, newest first. */
  runsOf(scheduleId: string, limit?: number): Promise<ScheduledRunListing[]> {
    return scheduledRuns(this.client, scheduleId, limit);
  }

  /** The schedule's newest run that completed (or regressed). */
  previousRun(scheduleId: string): Promise<string | undefined> {
    return previousScheduledRun(this.client, scheduleId);
  }

  /** The schedule's recent fires that are still planning or failed before their run. */
  problems(view: ScheduleView): Promise<FireProblem[]> {
    return fireProblems(this.client, view.recent);
  }

  /**
   * The primary score per contender and dataset over the schedule's last judged runs, oldest first; with
   * `intervals`, each with its 95 % interval over the cases.
   */
  trend(
    listing: readonly ScheduledRunListing[],
    primary: string,
    limit?: number,
    intervals = false,
  ): Promise<Trend> {
    return scheduleTrend(this.runs, listing, primary, limit, intervals);
  }

  /** The workers polling the schedule's task queue lately. */
  pollers(taskQueue: string): Promise<Poller[]> {
    return pollersOf(this.client, taskQueue);
  }

  private handle(project: string, name: string): ScheduleHandle {
    return this.client.schedule.getHandle(scheduleIdFor(project, name));
  }

  /** Runs `act` on a schedule, turning "not found" into a message that names it. */
  private async on<T>(project: string, name: string, act: (h: ScheduleHandle) => Promise<T>): Promise<T> {
    try {
      return await act(this.handle(project, name));
    } catch (error) {
      if (error instanceof ScheduleNotFoundError) {
        throw new ConfigError(
          undefined,
          name,
          'no such schedule in this project (see llm-evals schedule list)',
        );
      }
      throw error;
    }
  }

  /** Creates a schedule whose every fire starts `scheduledRun` on the suite's task queue. */
  async create(s: NewSchedule): Promise<string> {
    const id = scheduleIdFor(s.project, s.name);
    const every = s.every === undefined ? undefined : parseEvery(s.every);
    const spec: ScheduledRunSpec = {
      schedule: { id, name: s.name, project: s.project },
      flags: s.flags,
      ...(s.maxDrop !== undefined ? { maxDrop: s.maxDrop } : {}),
      ...(s.minScore !== undefined ? { minScore: s.minScore } : {}),
    };
    const memo: ScheduleMemo = {
      name: s.name,
      project: s.project,
      suite: s.suite,
      ...(s.every ? { every: s.every } : {}),
      ...(s.cron ? { cron: s.cron } : {}),
      ...(s.timezone ? { timezone: s.timezone } : {}),
    };
    try {
      await this.client.schedule.create({
        scheduleId: id,
        spec: {
          ...(every !== undefined
            ? { intervals: [{ every, offset: intervalOffset(every, new Date()) }] }
            : {}),
          ...(s.cron ? { cronExpressions: [s.cron] } : {}),
          ...(s.timezone ? { timezone: s.timezone } : {}),
        },
        action: {
          type: 'startWorkflow',
          workflowType: 'scheduledRun',
          workflowId: `${id}/fire`,
          taskQueue: s.taskQueue,
          args: [spec],
          searchAttributes: {
            LlmEvalsSchedule: [id],
            LlmEvalsProject: [s.project],
            LlmEvalsSuite: [s.suite],
          },
        },
        policies: { overlap: OVERLAPS[s.overlap], catchupWindow: s.catchupWindowMs },
        memo: { llmEvals: memo },
      });
    } catch (error) {
      if (error instanceof ScheduleAlreadyRunning) {
        throw new ConfigError(
          undefined,
          s.name,
          'a schedule of this name exists; delete it first, or pick another name',
        );
      }
      // The SDK turns the server's INVALID_ARGUMENT for a spec into a TypeError: a --cron or --timezone it refused.
      if (error instanceof TypeError && (s.cron || s.timezone)) {
        const zone = /time ?zone/i.test(error.message);
        const [flag, value] = zone ? ['--timezone', s.timezone] : ['--cron', s.cron];
        const like = zone ? 'Europe/Paris or UTC' : '"0 3 * * 1" (minute hour day month weekday)';
        throw new ConfigError(
          undefined,
          flag,
          `${JSON.stringify(value)} is refused by Temporal (${error.message}); give one such as ${like}`,
        );
      }
      throw error;
    }
    return id;
  }

  /** The schedule named `name` in `project`. */
  async describe(project: string, name: string): Promise<ScheduleView> {
    return this.on(project, name, async (h) => viewOf(await h.describe()));
  }

  /** The project's schedules, by name. */
  async list(project: string): Promise<ScheduleView[]> {
    const prefix = scheduleIdPrefix(project);
    const ids: string[] = [];
    for await (const summary of this.client.schedule.list()) {
      if (summary.scheduleId.startsWith(prefix)) ids.push(summary.scheduleId);
    }
    const views = await Promise.all(
      ids.map(async (id) => viewOf(await this.client.schedule.getHandle(id).describe())),
    );
    return views.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Stops the fires until `unpause`; a run going on finishes. */
  pause(project: string, name: string, note?: string): Promise<void> {
    return this.on(project, name, (h) => h.pause(note ?? 'paused with llm-evals schedule pause'));
  }

  unpause(project: string, name: string, note?: string): Promise<void> {
    return this.on(project, name, (h) => h.unpause(note ?? 'unpaused with llm-evals schedule unpause'));
  }

  /** Fires now, under the schedule's overlap policy (skipped while a run of it goes on, by default). */
  trigger(project: string, name: string): Promise<void> {
    return this.on(project, name, (h) => h.trigger());
  }

  /** Takes the fires the spec had between `from` and `to`, one after another (buffer-all). */
  backfill(project: string, name: string, from: Date, to: Date): Promise<void> {
    return this.on(project, name, (h) => h.backfill({ start: from, end: to, overlap: 'BUFFER_ALL' }));
  }

  /** Deletes the schedule; its runs, and one going on, stay. */
  delete(project: string, name: string): Promise<void> {
    return this.on(project, name, (h) => h.delete());
  }
}

/** A schedule's description as the commands show it. */
function viewOf(d: ScheduleDescription): ScheduleView {
  const memo = (d.memo?.llmEvals ?? {}) as ScheduleMemo;
  const spec = d.action.args?.[0] as ScheduledRunSpec;
  return {
    id: d.scheduleId,
    name: memo.name ?? d.scheduleId,
    project: memo.project ?? '',
    suite: memo.suite ?? '',
    taskQueue: d.action.taskQueue,
    when: whenOf(memo),
    paused: d.state.paused,
    ...(d.state.note ? { note: d.state.note } : {}),
    overlap:
      Object.entries(OVERLAPS).find(([, v]) => v === d.policies.overlap)?.[0] ?? String(d.policies.overlap),
    catchupWindowMs: d.policies.catchupWindow,
    spec,
    nextFires: d.info.nextActionTimes,
    recent: d.info.recentActions.map((a) => ({
      scheduledAt: a.scheduledAt,
      takenAt: a.takenAt,
      workflowId: a.action.workflow.workflowId,
    })),
    fired: d.info.numActionsTaken,
    skippedOverlap: d.info.numActionsSkippedOverlap,
    missedCatchup: d.info.numActionsMissedCatchupWindow,
    createdAt: d.info.createdAt,
  };
}
