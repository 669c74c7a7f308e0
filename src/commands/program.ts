import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import type { Io } from './io.ts';
import type { RunFlags, SuiteFlags } from './options.ts';

/** The command handlers the program dispatches to; each returns the exit code. */
export interface Commands {
  cases(flags: RunFlags, io: Io): Promise<number>;
  verify(flags: SuiteFlags, io: Io): Promise<number>;
  compare(flags: RunFlags, io: Io): Promise<number>;
  run(flags: RunFlags, io: Io): Promise<number>;
  server(action: string, flags: SuiteFlags, io: Io): Promise<number>;
}

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

function runOptions(command: Command): Command {
  return suiteOptions(command)
    .option('-d, --dataset <names>', 'only these datasets (repeat or comma-separate)', list)
    .option('-c, --case <ids>', 'only these variants or cases, such as clear or clear/003', list)
    .option('-e, --effort <efforts>', 'effort for every contender (comma-separate for several)', list)
    .option(
      '-t, --temperature <temps>',
      'temperature for every contender (comma-separate for several)',
      numbers,
    )
    .option('--max-tokens <n>', 'max tokens for every contender', positiveInt('--max-tokens'))
    .option('-p, --parallelism <n>', 'cases in flight per experiment', positiveInt('-p'))
    .option('-j, --concurrency <n>', 'experiments at once (default: CPU count; 0: all)', wholeNumber)
    .option('--project <name>', 'the tracker project')
    .option('--tracker <name>', 'the remote tracker (none for none)')
    .option('--local', 'no remote tracker')
    .option('--no-open', 'write reports without opening a browser')
    .option('-n, --dry-run', 'print the expanded matrix and estimate; call nothing')
    .option('-o, --output [file]', 'write the report to a file')
    .addOption(new Option('--format <format>', 'report format').choices(['tui', 'html', 'json']))
    .addOption(new Option('--totals <view>', 'TUI totals').choices(['overall', 'variant', 'both']))
    .addOption(new Option('--display <display>', 'what to show').choices(['none', 'tui', 'browser']))
    .option('--autosave', 'save the run as JSON (default)')
    .option('--no-autosave', 'save the run only to a temporary file')
    .option('--destination <dir>', 'where snapshots are saved')
    .option('--temp-dir <dir>', 'where temporary snapshots go')
    .option('-y, --yes', 'keep going when asked whether to');
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
  runOptions(
    program.command('cases').description('list the cases and refused lineup entries; calls nothing'),
  ).action((flags: RunFlags) => run(() => commands.cases(flags, io))());
  suiteOptions(
    program.command('verify').description('offline checks of inputs, expected answers, adapter and scorer'),
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
    .action((action: string, flags: SuiteFlags) => run(() => commands.server(action, flags, io))());
  program
    .command('version')
    .description('print the version')
    .action(() => {
      io.stdout.write(`llm-evals ${help.version}\n`);
    });
  return { program, exitCode: () => code };
}
