import type { Io } from '../cli/io.ts';
import { flipsAcrossRuns } from '../core/consistency.ts';
import { diffRuns, primaryMetric } from '../core/run-change.ts';
import type { ScheduleShow } from '../report/schedule-text.ts';
import type { TemporalLink } from '../client/connect.ts';
import { scheduleDigests } from '../client/schedule-runs.ts';
import { servesProject } from '../core/schedule-spec.ts';

/** How many of a schedule's runs `schedule show` lists. */
const SHOWN_RUNS = 10;

/**
 * Gathers what `schedule show` prints: the spec, next fires, last runs and their scores, the latest change, workers;
 * with `flaky`, the cases that flipped most over that many of the last judged runs.
 */
export async function scheduleShow(
  link: TemporalLink,
  project: string,
  name: string,
  flaky?: number,
): Promise<ScheduleShow> {
  const view = await link.schedules.describe(project, name);
  // The flaky count reads judged runs only: list enough that failed or running ones leave N of them.
  const [all, problems, workers] = await Promise.all([
    link.schedules.runsOf(view.id, flaky ? Math.max(SHOWN_RUNS, 2 * flaky + SHOWN_RUNS) : SHOWN_RUNS),
    link.schedules.problems(view),
    link.schedules.pollers(view.taskQueue),
  ]);
  const listing = all.slice(0, SHOWN_RUNS);
  const newest = listing.find((r) => r.state === 'completed' || r.state === 'regressed');
  const record = newest ? await link.runs.read(newest.runId) : undefined;
  const primary = record ? primaryMetric(record.header.metrics) : 'score';
  const trend = await link.schedules.trend(listing, primary, SHOWN_RUNS);
  const scores = new Map(trend.runs.map((r) => [r.runId, r.scores]));
  const previous = record?.header.schedule?.previousRunId;
  const [before, after] =
    previous && newest
      ? await Promise.all([link.runs.digest(previous).catch(() => undefined), link.runs.digest(newest.runId)])
      : [undefined, undefined];
  const outcome = newest ? await link.runs.outcome(newest.runId) : undefined;
  const digests = flaky ? await scheduleDigests(link.runs, all, flaky) : undefined;
  return {
    schedule: view,
    primary,
    contenders: trend.contenders,
    runs: listing.map((r) => ({
      runId: r.runId,
      state: r.state,
      startedAt: r.startedAt,
      scores: scores.get(r.runId) ?? [],
    })),
    ...(before && after ? { change: diffRuns(before, after) } : {}),
    regression: outcome?.regression ?? [],
    problems,
    // Another project's suite of the same name polls the same queue: its workers are not this schedule's.
    workers: workers.filter((w) => servesProject(w.identity, project)),
    ...(digests ? { flaky: { runs: digests.length, cases: flipsAcrossRuns(digests) } } : {}),
  };
}

/** `schedule show NAME`: the schedule as text, or as JSON when asked; `flaky` runs back for the flaky cases. */
export async function showSchedule(
  link: TemporalLink,
  project: string,
  name: string,
  asked: { flaky?: number; json?: boolean },
  io: Io,
  render: (show: ScheduleShow, now: Date, fit: { width?: number }) => string,
): Promise<number> {
  const show = await scheduleShow(link, project, name, asked.flaky);
  if (asked.json) io.stdout.write(JSON.stringify(show, null, 2) + '\n');
  else io.stdout.write(render(show, new Date(), { width: io.columns }) + '\n');
  return 0;
}
