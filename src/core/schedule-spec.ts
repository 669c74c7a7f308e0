import { z } from 'zod';
import { fnv1a } from './fnv.ts';

/** What a scheduled run records of its schedule (in its input and header): which one, the run it compares with, the bar. */
export const RunScheduleSchema = z.object({
  /** The schedule's id, which carries the project and the name (see `scheduleIdFor`). */
  id: z.string(),
  name: z.string(),
  /** The schedule's previous run that completed, found when this one was planned; none for the first. */
  previousRunId: z.string().optional(),
  /** `--max-drop`: percentage points the primary score of a contender on a dataset may lose before the run regresses. */
  maxDrop: z.number().optional(),
  /** `--min-score`: the primary score (0..1) under which a contender on a dataset makes the run regress. */
  minScore: z.number().optional(),
});
/** What a scheduled run records of its schedule: which one, the run it compares with, and the bar it must clear. */
export type RunSchedule = z.infer<typeof RunScheduleSchema>;

/** What a schedule's every fire starts `scheduledRun` with: the schedule, its project, and the compare flags to plan with. */
export const ScheduledRunSpecSchema = z.object({
  schedule: z.object({ id: z.string(), name: z.string(), project: z.string() }),
  /** The compare flags given to `schedule create` (models, datasets, cases, efforts…), replanned at each fire. */
  flags: z.record(z.string(), z.json()),
  maxDrop: z.number().optional(),
  minScore: z.number().optional(),
});
/** What a schedule's every fire starts `scheduledRun` with. */
export type ScheduledRunSpec = z.infer<typeof ScheduledRunSpecSchema>;

/** A schedule's name: what users type after `schedule show`, and part of its id. */
export const SCHEDULE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/**
 * A project's tag: its folder's name and a hash of its path, so two `app` folders (two checkouts of one repository)
 * differ. Schedule ids carry it, and so do the identities of the workers serving the project.
 */
export function projectTag(project: string): string {
  const base = project.split(/[\\/]/).filter(Boolean).pop() ?? 'project';
  return `${base.replace(/[^A-Za-z0-9._-]/g, '_')}-${fnv1aHex(project)}`;
}

/** The prefix of every schedule id of a project, so `schedule list` keeps its own. */
export function scheduleIdPrefix(project: string): string {
  return `llm-evals/${projectTag(project)}/`;
}

/** A worker's identity on Temporal: its process, its machine and the project it serves. */
export function workerIdentity(pid: number, host: string, project: string): string {
  return `${pid}@${host} ${projectTag(project)}`;
}

/** Whether a poller's identity is that of a worker of `project` (a worker of another project shares the queue). */
export function servesProject(identity: string, project: string): boolean {
  return identity.endsWith(` ${projectTag(project)}`);
}

/** A schedule's id: the project (its folder's name and a hash of its path, so two `app` folders differ) and the name. */
export function scheduleIdFor(project: string, name: string): string {
  return `${scheduleIdPrefix(project)}${name}`;
}

/** The 32-bit FNV-1a hash of a string, in hex: a short, stable tag that needs no crypto module in the sandbox. */
function fnv1aHex(text: string): string {
  return fnv1a(text).toString(16).padStart(8, '0');
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--every`: `1w`, `12h`, `1h30m`, `2s` in milliseconds; undefined when it is not such a duration. */
export function parseEvery(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(\d+[smhdw])+$/.test(trimmed)) return undefined;
  let ms = 0;
  for (const [, n, unit] of trimmed.matchAll(/(\d+)([smhdw])/g)) ms += Number(n) * UNITS[unit!]!;
  return ms > 0 ? ms : undefined;
}

/**
 * Where an `--every` schedule's fires fall within each period: Temporal counts intervals from 1970-01-01 00:00 UTC (a
 * Thursday), so `--every 1w` alone would fire on Thursdays at midnight. With this offset the fires fall at the moment
 * of creation, one period apart: a schedule made on Monday at 09:30 fires on Mondays at 09:30 (whole seconds).
 */
export function intervalOffset(everyMs: number, createdAt: Date): number {
  const seconds = Math.floor(createdAt.getTime() / 1000) * 1000;
  return seconds % everyMs;
}

/** Milliseconds as the shortest `--every` that says them: `1w`, `1d12h`, `2s`. */
export function formatEvery(ms: number): string {
  let left = Math.round(ms);
  const parts: string[] = [];
  for (const unit of ['w', 'd', 'h', 'm', 's']) {
    const size = UNITS[unit]!;
    if (left >= size) {
      parts.push(`${Math.floor(left / size)}${unit}`);
      left %= size;
    }
  }
  return parts.join('') || `${ms}ms`;
}

/**
 * How late a missed fire may still start when Temporal comes back (the machine slept, the server was down): one
 * period, but at least a minute and at most a day. A weekly run missed at 3 am starts when the laptop opens that
 * morning; one missed for days is skipped, since the next fire is near and stale catch-ups would pile up.
 */
export function catchupWindowFor(periodMs: number | undefined): number {
  const day = UNITS.d!;
  if (periodMs === undefined) return day;
  return Math.min(day, Math.max(60_000, periodMs));
}

/** A schedule as `schedule list` and `schedule show` see it. */
export interface ScheduleView {
  id: string;
  name: string;
  project: string;
  suite: string;
  taskQueue: string;
  /** When it fires, as it was given: `every 1w`, or `cron 0 3 * * 1 (Europe/Paris)`. */
  when: string;
  paused: boolean;
  note?: string;
  overlap: string;
  catchupWindowMs: number;
  spec: ScheduledRunSpec;
  nextFires: Date[];
  /** The fires taken, newest last: each one's `scheduledRun` workflow. */
  recent: { scheduledAt: Date; takenAt: Date; workflowId: string }[];
  fired: number;
  skippedOverlap: number;
  missedCatchup: number;
  createdAt: Date;
}
