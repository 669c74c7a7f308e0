import { join } from 'node:path';
import pc from 'picocolors';
import type { Json } from '../api/types.ts';
import type { Io } from '../cli/io.ts';
import type { ScheduleFlags } from '../cli/options.ts';
import { runRequestOf, suitePlaceOf } from './request.ts';
import { catchupWindowFor, formatEvery, parseEvery, SCHEDULE_NAME } from '../core/schedule-spec.ts';
import { ConfigError } from '../errors.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { shortPath } from '../suite/cases.ts';
import { renderScheduleList, renderScheduleShow } from '../report/schedule-text.ts';
import { linkForCommand } from '../session/link.ts';
import { findSuite, openSuite } from '../session/open-suite.ts';
import { planSuite } from '../session/plan-run.ts';
import { showSchedule } from '../session/schedule-view.ts';
import type { TemporalLink } from '../client/connect.ts';
import type { Overlap } from '../client/schedules.ts';
import { taskQueueFor } from '../client/worker.ts';

/** The compare flags a schedule keeps and plans each fire with: what selects and shapes the run, nothing of display. */
const PLAN_FLAGS = [
  'models',
  'dataset',
  'case',
  'effort',
  'temperature',
  'maxTokens',
  'parallelism',
  'concurrency',
  'tracker',
  'local',
  'project',
  'cache',
] as const;

function checkName(name: string | undefined): string {
  if (!name) throw new ConfigError(undefined, 'NAME', 'required: the schedule name');
  if (!SCHEDULE_NAME.test(name)) {
    throw new ConfigError(
      undefined,
      'NAME',
      `${JSON.stringify(name)} is not a schedule name: letters, digits, . _ - (up to 63), starting with a letter or digit`,
    );
  }
  return name;
}

function parseDate(flag: string, text: string | undefined): Date {
  const date = text === undefined ? undefined : new Date(text);
  if (!date || Number.isNaN(date.getTime())) {
    throw new ConfigError(
      undefined,
      flag,
      `takes a date such as 2025-01-06T03:00:00Z, got ${JSON.stringify(text)}`,
    );
  }
  return date;
}

/** `--timezone`: only with `--cron`, and a zone this machine knows (IANA names such as Europe/Paris). */
function checkTimezone(flags: ScheduleFlags): void {
  if (flags.timezone === undefined) return;
  if (!flags.cron)
    throw new ConfigError(undefined, '--timezone', 'applies to --cron only; --every keeps no zone');
  try {
    new Intl.DateTimeFormat('en', { timeZone: flags.timezone });
  } catch {
    throw new ConfigError(
      undefined,
      '--timezone',
      `${JSON.stringify(flags.timezone)} is no time zone; give an IANA name such as Europe/Paris or UTC`,
    );
  }
}

/** `schedule create`: checks the flags and the plan now, so a typo fails here rather than at 3 am. */
async function create(name: string, flags: ScheduleFlags, io: Io): Promise<number> {
  if (Boolean(flags.every) === Boolean(flags.cron)) {
    throw new ConfigError(undefined, '--every/--cron', 'give exactly one: --every 1w, or --cron "0 3 * * 1"');
  }
  checkTimezone(flags);
  const period = flags.every === undefined ? undefined : parseEvery(flags.every);
  if (flags.every !== undefined && period === undefined) {
    throw new ConfigError(
      undefined,
      '--every',
      `takes a duration such as 1w, 12h or 30s, got ${JSON.stringify(flags.every)}`,
    );
  }
  if (flags.maxDrop !== undefined && !(flags.maxDrop >= 0 && flags.maxDrop <= 100)) {
    throw new ConfigError(undefined, '--max-drop', `takes points from 0 to 100, got ${flags.maxDrop}`);
  }
  if (flags.minScore !== undefined && !(flags.minScore >= 0 && flags.minScore <= 100)) {
    throw new ConfigError(
      undefined,
      '--min-score',
      `takes a percentage from 0 to 100, got ${flags.minScore}`,
    );
  }
  const suite = await openSuite(suitePlaceOf(flags), io);
  const planFlags: Record<string, Json> = {};
  for (const key of PLAN_FLAGS) {
    if (flags[key] !== undefined) planFlags[key] = flags[key];
  }
  // Planned once now only to check the flags against the suite; each fire plans again from what is on disk then.
  await planSuite(suite, runRequestOf(planFlags, flags.models), io);
  const link = await linkForCommand(suite.projectDir, io, 'schedule');
  try {
    for (const warning of await link.schedules.prepare(link.embedded, period)) {
      io.stderr.write(pc.yellow(`warning: ${warning}`) + '\n');
    }
    const taskQueue = taskQueueFor(suite.name, io.env);
    const catchup =
      flags.catchupWindow === undefined ? catchupWindowFor(period) : parseEvery(flags.catchupWindow);
    if (catchup === undefined) {
      throw new ConfigError(
        undefined,
        '--catchup-window',
        `takes a duration such as 1h, got ${JSON.stringify(flags.catchupWindow)}`,
      );
    }
    const id = await link.schedules.create({
      name,
      project: suite.projectDir,
      suite: suite.name,
      taskQueue,
      ...(flags.every ? { every: formatEvery(period!) } : {}),
      ...(flags.cron ? { cron: flags.cron } : {}),
      ...(flags.timezone ? { timezone: flags.timezone } : {}),
      overlap: (flags.overlap ?? 'skip') as Overlap,
      catchupWindowMs: catchup,
      flags: planFlags,
      ...(flags.maxDrop !== undefined ? { maxDrop: flags.maxDrop } : {}),
      ...(flags.minScore !== undefined ? { minScore: flags.minScore / 100 } : {}),
    });
    const view = await link.schedules.describe(suite.projectDir, name);
    const next = view.nextFires[0];
    io.stderr.write(
      `schedule ${pc.bold(name)} created (${id}), ${view.when}` +
        `${next ? `; next fire ${next.toISOString()}` : ''}\n` +
        `its runs need a worker of the suite: keep ${pc.bold('llm-evals worker')} running ` +
        `(systemd units to keep it up: ${shortPath(io.cwd, join(PACKAGE_ROOT, 'examples/systemd'))})\n`,
    );
    io.stdout.write(`${id}\n`);
    return 0;
  } finally {
    await link.close();
  }
}

/**
 * Runs an action on the project's schedules: the suite's project, found without loading the suite, so a lineup broken
 * since (which fails the fires, as `show` says) does not stop `show`, `pause` or `delete`. The info box only where
 * the action changes something (`box`): a read (`list`, `show`) prints what was asked and nothing else.
 */
async function withLink<T>(
  flags: ScheduleFlags,
  io: Io,
  act: (link: TemporalLink, project: string) => Promise<T>,
  box = true,
) {
  const project = findSuite(suitePlaceOf(flags), io, box).projectDir;
  const link = await linkForCommand(project, io, 'schedule');
  try {
    return await act(link, project);
  } finally {
    await link.close();
  }
}

/**
 * `schedule ACTION [NAME]`: create, list, show, pause, unpause, trigger, backfill and delete the project's
 * schedules on Temporal Schedules. A schedule fires `scheduledRun`, which a `llm-evals worker` of the suite plans.
 */
export async function scheduleCommand(
  action: string,
  nameArg: string | undefined,
  flags: ScheduleFlags,
  io: Io,
): Promise<number> {
  if (action === 'create') return create(checkName(nameArg), flags, io);
  if (action === 'list') {
    return withLink(
      flags,
      io,
      async (link, project) => {
        const views = await link.schedules.list(project);
        if (flags.json) io.stdout.write(JSON.stringify(views, null, 2) + '\n');
        else io.stdout.write(renderScheduleList(views, new Date(), { width: io.columns }) + '\n');
        return 0;
      },
      false,
    );
  }
  const name = checkName(nameArg);
  const read = action === 'show';
  return withLink(
    flags,
    io,
    async (link, project) => {
      switch (action) {
        case 'show':
          return showSchedule(
            link,
            project,
            name,
            { flaky: flags.flaky, json: flags.json },
            io,
            renderScheduleShow,
          );
        case 'pause':
          await link.schedules.pause(project, name, flags.note);
          io.stderr.write(`schedule ${pc.bold(name)} paused; a run going on finishes\n`);
          return 0;
        case 'unpause':
          await link.schedules.unpause(project, name, flags.note);
          io.stderr.write(`schedule ${pc.bold(name)} fires again\n`);
          return 0;
        case 'trigger':
          await link.schedules.trigger(project, name);
          io.stderr.write(`schedule ${pc.bold(name)} fired now (skipped if a run of it still goes on)\n`);
          return 0;
        case 'backfill': {
          const from = parseDate('--from', flags.from);
          const to = parseDate('--to', flags.to);
          if (to <= from) throw new ConfigError(undefined, '--to', `must come after --from (${flags.from})`);
          await link.schedules.backfill(project, name, from, to);
          io.stderr.write(
            `schedule ${pc.bold(name)}: the fires between ${from.toISOString()} and ${to.toISOString()} run one after another\n`,
          );
          return 0;
        }
        case 'delete':
          await link.schedules.delete(project, name);
          io.stderr.write(`schedule ${pc.bold(name)} deleted; its runs stay\n`);
          return 0;
        default:
          throw new ConfigError(undefined, 'schedule', `unknown action ${JSON.stringify(action)}`);
      }
    },
    !read,
  );
}
