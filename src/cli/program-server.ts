// The commands about the services around runs: the embedded server, the codec server, the reply cache and the
// schedules (`schedule` and its subcommands).
import { Argument, Option } from 'commander';
import type { CodecServerFlags } from '../commands/codec-server.ts';
import type { CacheFlags, ScheduleFlags, SuiteFlags } from './options.ts';
import { points, positiveInt, wholeNumber } from './arg-parsers.ts';
import { planOptions, suiteOptions, trackerOptions } from './option-groups.ts';
import type { ProgramParts } from './handlers.ts';

/** `server install|start|stop|status`: the embedded Temporal dev server. */
export function serverCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(
    program.command('server').description('the embedded Temporal dev server: install, start, stop, status'),
  )
    .addArgument(new Argument('<action>', 'what to do').choices(['install', 'start', 'stop', 'status']))
    .option('--force', 'stop: even while runs (of any project) are going on on it')
    .action((action: string, flags: SuiteFlags & { force?: boolean }) =>
      run(() => commands.server(action, flags, io))(),
    );
}

/** `codec-server`: the payload codec served to Temporal's Web UI. */
export function codecServerCommand({ program, commands, io, run }: ProgramParts): void {
  program
    .command('codec-server')
    .description("serve the payload codec (LLM_EVALS_CODEC_KEYS) to Temporal's Web UI")
    .option('--port <n>', 'the port (default: 8089; 0: any free one)', wholeNumber)
    .option('--host <host>', 'the address to listen on; other than loopback needs a token')
    .option(
      '--origin <urls...>',
      "the Web UI's origins (default: LLM_EVALS_CODEC_ORIGINS, else the embedded UI at :8233)",
    )
    .option('--token <token>', 'the bearer token asked of every request (default: LLM_EVALS_CODEC_TOKEN)')
    .action((flags: CodecServerFlags) => run(() => commands.codecServer(flags, io))());
}

/** `cache stats|prune|clear`: the reply cache. */
export function cacheCommand({ program, commands, io, run }: ProgramParts): void {
  program
    .command('cache')
    .description(
      'the reply cache (LLM_EVALS_CACHE_DIR, else $XDG_CACHE_HOME/llm-evals/replies): stats, prune, clear',
    )
    .addArgument(new Argument('<action>', 'what to do').choices(['stats', 'prune', 'clear']))
    .option(
      '--older-than <duration>',
      'prune: remove the replies kept longer ago than this, such as 30d or 12h',
    )
    .option('--json', 'stats: print JSON')
    .action((action: string, flags: CacheFlags) => run(() => commands.cache(action, flags, io))());
}

/** `schedule create|list|show|pause|unpause|trigger|backfill|delete`, each a subcommand of `schedule`. */
export function scheduleCommand({ program, commands, io, run }: ProgramParts): void {
  const schedule = program
    .command('schedule')
    .description(
      'regression runs on a Temporal Schedule: create, list, show, pause, unpause, trigger, backfill, delete',
    );
  const act = (action: string) => (name: string | undefined, flags: ScheduleFlags) =>
    run(() => commands.schedule(action, name, flags, io))();
  trackerOptions(
    planOptions(suiteOptions(schedule.command('create').description('create a schedule of compare runs'))),
  )
    .argument('<name>', 'the schedule name (letters, digits, . _ -)')
    .option('--every <duration>', 'fire every so long: 1w, 1d, 12h, 30s')
    .option('--cron <expression>', 'fire on a cron spec, such as "0 3 * * 1"')
    .option('--timezone <zone>', 'the time zone of --cron (default UTC)')
    .addOption(
      new Option('--overlap <policy>', 'a fire while a run still goes on (default skip)').choices([
        'skip',
        'buffer-one',
        'buffer-all',
        'cancel-other',
        'terminate-other',
        'allow-all',
      ]),
    )
    .option(
      '--catchup-window <duration>',
      'how late a missed fire may still run (default: one period, 1m to 1d)',
    )
    .option(
      '--max-drop <points>',
      "a drop of a contender's primary score, in points, that regresses a run",
      points('--max-drop'),
    )
    .option(
      '--min-score <percent>',
      "a contender's primary score under this regresses a run",
      points('--min-score'),
    )
    .option('-m, --models <ids...>', 'only these model ids')
    .option('--cache', 'answer from the reply cache what it holds (default: every fire calls every case)')
    .action((name: string, flags: ScheduleFlags) => act('create')(name, flags));
  suiteOptions(schedule.command('list').description("this project's schedules"))
    .option('--json', 'print JSON')
    .action((flags: ScheduleFlags) => act('list')(undefined, flags));
  suiteOptions(
    schedule.command('show').description('a schedule: spec, next fires, last runs, the change, workers'),
  )
    .argument('<name>', 'the schedule name')
    .option('--json', 'print JSON')
    .option('--flaky <n>', 'the cases that flipped most over the last N runs', positiveInt('--flaky'))
    .action((name: string, flags: ScheduleFlags) => act('show')(name, flags));
  for (const [action, what] of [
    ['pause', 'stop firing until unpaused; a run going on finishes'],
    ['unpause', 'fire again'],
  ] as const) {
    suiteOptions(schedule.command(action).description(what))
      .argument('<name>', 'the schedule name')
      .option('--note <text>', 'why, shown by schedule show')
      .action((name: string, flags: ScheduleFlags) => act(action)(name, flags));
  }
  for (const [action, what] of [
    ['trigger', 'fire now (under the overlap policy)'],
    ['delete', 'delete the schedule; its runs stay'],
  ] as const) {
    suiteOptions(schedule.command(action).description(what))
      .argument('<name>', 'the schedule name')
      .action((name: string, flags: ScheduleFlags) => act(action)(name, flags));
  }
  suiteOptions(schedule.command('backfill').description('take the fires a time range had, one after another'))
    .argument('<name>', 'the schedule name')
    .requiredOption('--from <date>', 'the range start, such as 2025-01-06T00:00:00Z')
    .requiredOption('--to <date>', 'the range end')
    .action((name: string, flags: ScheduleFlags) => act('backfill')(name, flags));
}
