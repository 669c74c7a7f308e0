// The flags several commands share, declared once each so that `--help` reads the same everywhere: which suite,
// which cases, how a run is planned, tracked, reported, saved, paused, cached and gated.
import { Option, type Command } from 'commander';
import { list, numbers, points, positiveInt, wholeNumber } from './arg-parsers.ts';

/** Where the suite is found, and how much is said: every command that reads a suite takes these. */
export function suiteOptions(command: Command): Command {
  return command
    .option('-C, --config <file>', 'the lineup file; skips the search')
    .option('--helper <file>', 'the helper file; skips the search (or LLM_EVALS_HELPER)')
    .option('--no-search', 'do not search for a suite')
    .option('-v, --verbose', 'say more, and show stack traces');
}

/** `-d`/`-c`: which cases. */
export function selectionOptions(command: Command): Command {
  return command
    .option('-d, --dataset <names>', 'only these datasets (repeat or comma-separate)', list)
    .option('-c, --case <ids>', 'only these variants or cases, such as clear or clear/003', list);
}

/** What a new run is planned with: the contenders' settings, concurrency, the dry run. */
export function planOptions(command: Command): Command {
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
export function trackerOptions(command: Command): Command {
  return command
    .option('--project <name>', 'the tracker project')
    .option('--tracker <name>', 'the remote tracker (none for none)')
    .option('--local', 'no remote tracker');
}

/** How a run's report is shown and where it is written. */
export function reportOptions(command: Command, formats = ['tui', 'html', 'json']): Command {
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
export function saveOptions(command: Command): Command {
  return command
    .option('--autosave', 'save the run as JSON (default)')
    .option('--no-autosave', 'save the run only to a temporary file')
    .option('--destination <dir>', 'where snapshots are saved')
    .option('--temp-dir <dir>', 'where temporary snapshots go');
}

/** What a command that serves a run in this process answers when the run pauses. */
export function pauseOptions(command: Command): Command {
  return command
    .option('-y, --yes', 'keep going when asked whether to')
    .option('--allow-failures', 'exit 0 even when a contender produced no scored case');
}

/** How a new run uses the reply cache: read it (the default), call everything again, or call nothing. */
export function cacheOptions(command: Command): Command {
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
export function runOptions(command: Command): Command {
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
