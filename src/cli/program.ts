// Over 400 lines: every command's arguments, flags and help are declared here, in one program, so that the flags
// shared by several commands are declared once (the *Options helpers) and `--help` reads the same everywhere. The
// handlers are injected (Commands); this file only parses.
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import type { Io } from './io.ts';
import type { AgreementFlags } from '../commands/agreement.ts';
import type { CodecServerFlags } from '../commands/codec-server.ts';
import type { LabelFlags } from '../commands/label.ts';
import type { RenderFlags } from '../commands/render.ts';
import type { UpgradeFlags } from '../commands/upgrade-config.ts';
import type { ViewFlags } from '../commands/view.ts';
import type {
  CacheFlags,
  DiffFlags,
  RunFlags,
  ScheduleFlags,
  StartFlags,
  StatusFlags,
  SuiteFlags,
  TrackFlags,
  WorkerFlags,
} from './options.ts';
import { VIEW_PORT } from './options.ts';

/** The command handlers the program dispatches to; each returns the exit code. */
export interface Commands {
  cases(flags: RunFlags, io: Io): Promise<number>;
  verify(flags: SuiteFlags, io: Io): Promise<number>;
  compare(flags: RunFlags, io: Io): Promise<number>;
  run(flags: RunFlags, io: Io): Promise<number>;
  server(action: string, flags: SuiteFlags & { force?: boolean }, io: Io): Promise<number>;
  weights(flags: SuiteFlags, io: Io): Promise<number>;
  render(file: string, flags: RenderFlags, io: Io): Promise<number>;
  start(flags: StartFlags, io: Io): Promise<number>;
  worker(flags: WorkerFlags, io: Io): Promise<number>;
  resume(runId: string, flags: RunFlags, io: Io): Promise<number>;
  status(runId: string | undefined, flags: StatusFlags, io: Io): Promise<number>;
  report(runId: string, flags: RunFlags, io: Io): Promise<number>;
  rescore(target: string, flags: RunFlags, io: Io): Promise<number>;
  track(target: string, flags: TrackFlags, io: Io): Promise<number>;
  runs(flags: StatusFlags & { limit?: number; all?: boolean }, io: Io): Promise<number>;
  cancel(runId: string, flags: StatusFlags, io: Io): Promise<number>;
  answer(runId: string, goOn: boolean, flags: StatusFlags, io: Io): Promise<number>;
  upgradeConfig(flags: UpgradeFlags, io: Io): Promise<number>;
  schedule(action: string, name: string | undefined, flags: ScheduleFlags, io: Io): Promise<number>;
  diff(a: string, b: string, flags: DiffFlags, io: Io): Promise<number>;
  label(
    run: string,
    caseKey: string,
    contender: string,
    value: string,
    flags: LabelFlags,
    io: Io,
  ): Promise<number>;
  agreement(run: string | undefined, flags: AgreementFlags, io: Io): Promise<number>;
  view(flags: ViewFlags, io: Io): Promise<number>;
  codecServer(flags: CodecServerFlags, io: Io): Promise<number>;
  cache(action: string, flags: CacheFlags, io: Io): Promise<number>;
  init(io: Io): Promise<number>;
  /** Gets the program itself, so the script it prints completes exactly the commands and flags parsed here. */
  completion(shell: string, program: Command, io: Io): Promise<number>;
  /** The hidden `__complete`: the values a completion script asks for, one a line. */
  complete(what: string, flags: SuiteFlags, io: Io): Promise<number>;
}

/** The shells `completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh'];

/** The hidden command a completion script calls back for the suite's values. */
export const COMPLETE_COMMAND = '__complete';

/** What `__complete` lists: the suite's datasets, variants and cases, lineup model ids, runs, schedules. */
export const COMPLETION_VALUES = ['datasets', 'cases', 'models', 'runs', 'schedules'];

/** What `--help` says about providers: each request type and who serves it. */
export interface HelpInfo {
  version: string;
  requestTypes: { type: string; description: string; providers: string[] }[];
}

const positiveInt = (name: string) => (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`${name} takes a whole number ≥ 1, got ${JSON.stringify(value)}`);
  return Number(value);
};

const wholeNumber = (value: string) => {
  if (!/^\d+$/.test(value))
    throw new InvalidArgumentError(`takes a whole number ≥ 0, got ${JSON.stringify(value)}`);
  return Number(value);
};

const points = (flag: string) => (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
    throw new InvalidArgumentError(`${flag} takes a number from 0 to 100, got ${JSON.stringify(value)}`);
  return n;
};

const list = (value: string, previous: string[] = []) => [
  ...previous,
  ...value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean),
];

const numbers = (value: string, previous: number[] = []) =>
  list(value).reduce((all, v) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0 || n > 2)
      throw new InvalidArgumentError(`takes temperatures from 0 to 2, got ${JSON.stringify(v)}`);
    return [...all, n];
  }, previous);

function suiteOptions(command: Command): Command {
  return command
    .option('-C, --config <file>', 'the lineup file; skips the search')
    .option('--helper <file>', 'the helper file; skips the search (or LLM_EVALS_HELPER)')
    .option('--no-search', 'do not search for a suite')
    .option('-v, --verbose', 'say more, and show stack traces');
}

/** `-d`/`-c`: which cases. */
function selectionOptions(command: Command): Command {
  return command
    .option('-d, --dataset <names>', 'only these datasets (repeat or comma-separate)', list)
    .option('-c, --case <ids>', 'only these variants or cases, such as clear or clear/003', list);
}

/** What a new run is planned with: the contenders' settings, concurrency, the dry run. */
function planOptions(command: Command): Command {
  return selectionOptions(command)
    .option('-e, --effort <efforts>', 'effort for every contender (comma-separate for several)', list)
    .option(
      '-t, --temperature <temps>',
      'temperature for every contender (comma-separate for several)',
      numbers,
    )
    .option('--max-tokens <n>', 'max tokens for every contender', positiveInt('--max-tokens'))
    .option('-p, --parallelism <n>', 'cases in flight per experiment', positiveInt('-p'))
    .option('-j, --concurrency <n>', 'experiments at once (default: CPU count; 0: all)', wholeNumber)
    .option(
      '--repeat <n>',
      'run each case n times per contender (seeded where the provider takes a seed); means with 95 % intervals',
      positiveInt('--repeat'),
    )
    .addOption(
      new Option(
        '--pairs <which>',
        'paired comparisons: each contender against the best, or every pair',
      ).choices(['best', 'all']),
    )
    .option('-n, --dry-run', 'print the expanded matrix and estimate; call nothing')
    .option('--no-verify', "skip verify's checks before the first call (keys are still checked)");
}

/** Where a run's results go besides the report: the trackers. */
function trackerOptions(command: Command): Command {
  return command
    .option('--project <name>', 'the tracker project')
    .option('--tracker <name>', 'the remote tracker (none for none)')
    .option('--local', 'no remote tracker');
}

/** How a run's report is shown and where it is written. */
function reportOptions(command: Command, formats = ['tui', 'html', 'json']): Command {
  return command
    .option('--no-open', 'write reports without opening a browser')
    .option('-o, --output [file]', 'write the report to a file')
    .addOption(
      new Option(
        '--format <format>',
        `report format${formats.length > 3 ? ' (markdown, junit: the --baseline gate)' : ''}`,
      ).choices(formats),
    )
    .addOption(new Option('--totals <view>', 'TUI totals').choices(['overall', 'variant', 'both']))
    .addOption(new Option('--display <display>', 'what to show').choices(['none', 'tui', 'browser']))
    .option('--scores', 'list every experiment by score, with its tracker link');
}

/** Where a finished run's snapshot is saved. */
function saveOptions(command: Command): Command {
  return command
    .option('--autosave', 'save the run as JSON (default)')
    .option('--no-autosave', 'save the run only to a temporary file')
    .option('--destination <dir>', 'where snapshots are saved')
    .option('--temp-dir <dir>', 'where temporary snapshots go');
}

/** What a command that serves a run in this process answers when the run pauses. */
function pauseOptions(command: Command): Command {
  return command
    .option('-y, --yes', 'keep going when asked whether to')
    .option('--allow-failures', 'exit 0 even when a contender produced no scored case');
}

/** How a new run uses the reply cache: read it (the default), call everything again, or call nothing. */
function cacheOptions(command: Command): Command {
  return command
    .option('--no-cache', 'call every case again and refresh the reply cache')
    .addOption(
      new Option('--cache-only', 'call nothing: replies from the cache, other cases skipped').conflicts(
        'cache',
      ),
    )
    .addOption(
      new Option(
        '--batch',
        "send the calls as each endpoint's Batch API batch, at its batch price",
      ).conflicts('cacheOnly'),
    );
}

/** Every option of a command that runs a new plan and reports it: compare and run. */
function runOptions(command: Command): Command {
  return gateOptions(
    cacheOptions(
      pauseOptions(
        saveOptions(
          reportOptions(trackerOptions(planOptions(suiteOptions(command))), [
            'tui',
            'html',
            'json',
            'markdown',
            'junit',
          ]),
        ),
      ),
    ),
  );
}

/** A pull request's gate: the run judged against a baseline run or snapshot, paired case by case. */
function gateOptions(command: Command): Command {
  return command
    .option(
      '--baseline <run|file>',
      'judge the run against this run id, snapshot file or schedule:NAME, paired by case',
    )
    .option(
      '--sample <n>',
      'a sample of n cases per dataset, stratified by variant (a quick check)',
      positiveInt('--sample'),
    )
    .option('--seed <n>', 'the seed of --sample (default 0)', wholeNumber)
    .option(
      '--pairwise <contenders...>',
      'two contenders A B as the lineup names them: the judge says which reply is better, in both orders',
    )
    .option(
      '--min-drop <points>',
      'with --baseline: the smallest significant drop that regresses',
      points('--min-drop'),
    )
    .option(
      '--max-drop <points>',
      'with --baseline: any drop this large fails, significant or not',
      points('--max-drop'),
    )
    .addOption(
      new Option(
        '--fail-on <when>',
        'with --baseline: exit 1 on a regression (default in CI, where CI is set)',
      ).choices(['regression', 'never']),
    );
}

/** Builds the command-line parser around injected handlers, so parsing is tested without running anything. */
export function createProgram(
  commands: Commands,
  io: Io,
  help: HelpInfo,
): { program: Command; exitCode: () => number } {
  let code = 0;
  const program = new Command('llm-evals')
    .description(
      'Which model, at which effort and temperature, answers your cases best, cheapest and fastest.',
    )
    .version(`llm-evals ${help.version}`, '-V, --version', 'print the version')
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');
  const widest = Math.max(...help.requestTypes.map((r) => r.type.length));
  program.addHelpText(
    'after',
    '\nRequest types (a suite names the ones its adapter sends in request_types):\n' +
      help.requestTypes
        .map((r) => `  ${r.type.padEnd(widest)}  ${r.description} (${r.providers.join(', ')})`)
        .join('\n'),
  );
  const run = (handler: () => Promise<number>) => async () => {
    code = await handler();
  };
  selectionOptions(
    suiteOptions(
      program.command('cases').description('list the cases and refused lineup entries; calls nothing'),
    ),
  ).action((flags: RunFlags) => run(() => commands.cases(flags, io))());
  suiteOptions(
    program
      .command('verify')
      .description("a run's checks, no call: inputs, expected answers, adapter, scorer, keys, endpoints"),
  ).action((flags: SuiteFlags) => run(() => commands.verify(flags, io))());
  runOptions(program.command('compare').description('run the whole lineup; leaderboard and reports')).action(
    (flags: RunFlags) => run(() => commands.compare(flags, io))(),
  );
  runOptions(program.command('run').description('run the named models, with a per-case breakdown'))
    .requiredOption('-m, --models <ids...>', 'model ids, such as openai/gpt-4.1-mini')
    .action((flags: RunFlags) => run(() => commands.run(flags, io))());
  suiteOptions(
    program.command('server').description('the embedded Temporal dev server: install, start, stop, status'),
  )
    .addArgument(new Argument('<action>', 'what to do').choices(['install', 'start', 'stop', 'status']))
    .option('--force', 'stop: even while runs (of any project) are going on on it')
    .action((action: string, flags: SuiteFlags & { force?: boolean }) =>
      run(() => commands.server(action, flags, io))(),
    );
  cacheOptions(
    trackerOptions(
      planOptions(
        suiteOptions(
          program.command('start').description('start a run and return; a background worker serves it'),
        ),
      ),
    ),
  )
    .option('-m, --models <ids...>', 'only these model ids')
    .option('--no-worker', 'leave serving the run to `llm-evals worker` processes')
    .action((flags: StartFlags) => run(() => commands.start(flags, io))());
  suiteOptions(program.command('worker').description("serve this suite's runs (any number, on any machine)"))
    .option('--until <run>', 'leave once this run has closed')
    .option(
      '--max-activities <n>',
      "experiments' pools of calls (and retries) it runs at once; leaves the rest to other workers",
      positiveInt('--max-activities'),
    )
    .action((flags: WorkerFlags) => run(() => commands.worker(flags, io))());
  pauseOptions(
    saveOptions(
      reportOptions(
        suiteOptions(
          program.command('resume').description('serve a run again with the live view, then report'),
        ),
      ),
    ),
  )
    .argument('<run>', 'the run id')
    .option(
      '--retry-errors',
      'then call the cases that ended in errors again, in a new run (the other replies from the reply cache)',
    )
    .action((runId: string, flags: RunFlags) => run(() => commands.resume(runId, flags, io))());
  suiteOptions(
    program.command('status').description("a run's progress per experiment, state, ETA and UI link"),
  )
    .argument('[run]', 'the run id (default: the newest)')
    .option('--watch', 'redraw until the run closes')
    .option('--json', 'print JSON')
    .action((runId: string | undefined, flags: StatusFlags) =>
      run(() => commands.status(runId, flags, io))(),
    );
  reportOptions(
    suiteOptions(
      program.command('report').description("a run's report from Temporal's data, partial while it runs"),
    ),
  )
    .option('--allow-failures', 'exit 0 even when a contender produced no scored case')
    .argument('<run>', 'the run id')
    .action((runId: string, flags: RunFlags) => run(() => commands.report(runId, flags, io))());
  saveOptions(
    reportOptions(
      suiteOptions(
        program
          .command('rescore')
          .description(
            "grade a run's saved replies again with the suite's current scorer and weights; calls no model",
          ),
      ),
    ),
  )
    .option('--allow-failures', 'exit 0 even when a contender produced no scored case')
    .argument('<run>', 'the run id, or a saved snapshot such as evals/results/<run>.json')
    .action((target: string, flags: RunFlags) => run(() => commands.rescore(target, flags, io))());
  trackerOptions(
    suiteOptions(
      program
        .command('track')
        .description(
          'send a finished run again to the local log and the remote tracker (its own, or --tracker)',
        ),
    ),
  )
    .argument('<run>', 'the run id, or a saved snapshot (FILE.json)')
    .action((target: string, flags: TrackFlags) => run(() => commands.track(target, flags, io))());
  suiteOptions(program.command('runs').description('recent runs of this project (--all: of every project)'))
    .option('--all', 'the runs of every project on this Temporal')
    .option('--json', 'print JSON')
    .option('--limit <n>', 'how many', positiveInt('--limit'))
    .action((flags: StatusFlags & { limit?: number; all?: boolean }) =>
      run(() => commands.runs(flags, io))(),
    );
  suiteOptions(program.command('view').description('every run in the browser, live (127.0.0.1)'))
    .option('--port <n>', `the port (default: ${VIEW_PORT}; 0: any free one)`, wholeNumber)
    .option('--host <host>', 'the address to listen on; other than loopback needs a token')
    .option('--token <token>', 'the token a non-loopback view asks for (else one is made and printed)')
    .option('--no-open', 'print the address, open no browser')
    .action((flags: ViewFlags) => run(() => commands.view(flags, io))());
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
  suiteOptions(program.command('cancel').description('cancel a run and its experiments still running'))
    .argument('<run>', 'the run id')
    .action((runId: string, flags: StatusFlags) => run(() => commands.cancel(runId, flags, io))());
  suiteOptions(
    program.command('weights').description("each weighted column's direction and real share"),
  ).action((flags: SuiteFlags) => run(() => commands.weights(flags, io))());
  program
    .command('render')
    .description('render a saved run (FILE.json) as HTML, or as the TUI or JSON; calls nothing')
    .argument('<file>', 'a snapshot, such as evals/results/<run>.json')
    .option('-o, --output [file]', 'where to write (default: beside the snapshot; - for stdout)')
    .addOption(
      new Option('--format <format>', 'report format (default: html)').choices(['tui', 'html', 'json']),
    )
    .addOption(new Option('--totals <view>', 'TUI totals').choices(['overall', 'variant', 'both']))
    .option('--scores', 'list every experiment by score (TUI)')
    .action((file: string, flags: RenderFlags) => run(() => commands.render(file, flags, io))());
  for (const [name, goOn, what] of [
    ['continue', true, 'go on with a run paused after a streak of failures'],
    ['stop', false, 'stop a paused run; it reports what finished'],
  ] as const) {
    suiteOptions(program.command(name).description(what))
      .argument('<run>', 'the run id')
      .action((runId: string, flags: StatusFlags) => run(() => commands.answer(runId, goOn, flags, io))());
  }
  scheduleCommands(program, commands, io, run);
  suiteOptions(
    program
      .command('diff')
      .description('the change between two runs (ids or saved snapshot files): scores, cost, latency, cases'),
  )
    .argument('<run-a>', 'the earlier run: a run id or a snapshot file')
    .argument('<run-b>', 'the later run: a run id or a snapshot file')
    .addOption(
      new Option('--format <format>', 'output format (default: tui)').choices(['tui', 'html', 'json']),
    )
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .action((a: string, b: string, flags: DiffFlags) => run(() => commands.diff(a, b, flags, io))());
  suiteOptions(
    program.command('label').description("a person's label on a reply, kept in the suite's labels.jsonl"),
  )
    .argument('<run>', 'the run id, or a saved snapshot file')
    .argument('<case>', 'the case key, such as support/003')
    .argument(
      '<contender>',
      'the contender as the lineup names it, with its settings where they tell it apart',
    )
    .argument('<label>', "pass, fail, or a score on the judge's scale")
    .option('--by <name>', 'who gives the label')
    .action((r: string, k: string, c: string, v: string, flags: LabelFlags) =>
      run(() => commands.label(r, k, c, v, flags, io))(),
    );
  suiteOptions(
    program.command('agreement').description("how far the judge agrees with people's labels (Cohen's κ)"),
  )
    .argument('[run]', 'the run id or a saved snapshot file (default: the newest saved run)')
    .option('--json', 'print JSON')
    .action((r: string | undefined, flags: AgreementFlags) => run(() => commands.agreement(r, flags, io))());
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
  program
    .command('init')
    .description('write a working suite into evals/ (stand-in models, one dataset); overwrites nothing')
    .action(() => run(() => commands.init(io))());
  suiteOptions(
    program
      .command('upgrade-config')
      .description(
        'rewrite an old lineup (top-level vendors:/direct:) in place, keeping comments and <file>.bak',
      ),
  )
    .option('-n, --dry-run', 'print the upgraded lineup; write nothing')
    .action((flags: UpgradeFlags) => run(() => commands.upgradeConfig(flags, io))());
  program
    .command('completion')
    .description('print a shell completion script: source <(llm-evals completion bash)')
    .addArgument(new Argument('<shell>', 'the shell').choices(COMPLETION_SHELLS))
    .action((shell: string) => run(() => commands.completion(shell, program, io))());
  suiteOptions(program.command(COMPLETE_COMMAND, { hidden: true }))
    .addArgument(new Argument('<what>', 'what to list').choices(COMPLETION_VALUES))
    .action((what: string, flags: SuiteFlags) => run(() => commands.complete(what, flags, io))());
  program
    .command('version')
    .description('print the version')
    .action(() => {
      io.stdout.write(`llm-evals ${help.version}\n`);
    });
  return { program, exitCode: () => code };
}

/** `schedule create|list|show|pause|unpause|trigger|backfill|delete`, each a subcommand of `schedule`. */
function scheduleCommands(
  program: Command,
  commands: Commands,
  io: Io,
  run: (handler: () => Promise<number>) => () => Promise<void>,
): void {
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
