import type { Argument, Command, Help, Option } from 'commander';

/** What a shell can offer for a value: nothing (the user's own), fixed choices, paths, or the suite's values. */
export type Values =
  | { kind: 'none' }
  | { kind: 'choices'; choices: string[] }
  | { kind: 'files' }
  | { kind: 'dirs' }
  /** Asked of `llm-evals __complete <what>` on each Tab; `list` values are comma-separated. */
  | { kind: 'suite'; what: string; list: boolean };

/** A flag as completion sees it: its spellings, its help line, and the value it takes, if any. */
export interface FlagSpec {
  names: string[];
  description: string;
  /** `name` is the placeholder `--help` shows, such as `file` for `<file>`. */
  value?: { name: string; optional: boolean; variadic: boolean; values: Values };
}

/** A command's flags and positional arguments, in order. */
export interface CommandSpec {
  name: string;
  description: string;
  flags: FlagSpec[];
  args: { name: string; optional: boolean; variadic: boolean; values: Values }[];
  /** A command made of subcommands (`schedule show`): they are completed after it, each with its own flags. */
  subcommands?: CommandSpec[];
}

/** Everything a completion script completes, read off the commander program so the two never drift apart. */
export interface CompletionSpec {
  /** The program's names: `llm-evals`, and `evals`, which package.json installs too. */
  names: string[];
  flags: FlagSpec[];
  commands: CommandSpec[];
}

/** The flags whose values come from the suite; their meaning is not in commander, so it is written here. */
const SUITE_VALUES: Record<string, Values> = {
  '--dataset': { kind: 'suite', what: 'datasets', list: true },
  '--case': { kind: 'suite', what: 'cases', list: true },
  '--models': { kind: 'suite', what: 'models', list: false },
};

/** Values named by their placeholder (`<file>`, `<dir>`, `<run>`), for flags and arguments alike. */
function byPlaceholder(name: string, commands: string[]): Values {
  if (name === 'file') return { kind: 'files' };
  if (name === 'dir') return { kind: 'dirs' };
  // `<run-a>`/`<run-b>` (diff) take runs too: Tab offers the project's run ids.
  if (name === 'run' || name.startsWith('run-')) return { kind: 'suite', what: 'runs', list: false };
  if (name === 'command') return { kind: 'choices', choices: commands };
  return { kind: 'none' };
}

function flagSpec(option: Option, commands: string[]): FlagSpec {
  const names = [option.short, option.long].filter((n): n is string => Boolean(n));
  const spec: FlagSpec = { names, description: option.description };
  if (!option.required && !option.optional) return spec;
  const placeholder = /[<[]([^>\]]+?)(?:\.\.\.)?[>\]]/.exec(option.flags)?.[1] ?? '';
  const values: Values = option.argChoices
    ? { kind: 'choices', choices: option.argChoices }
    : (SUITE_VALUES[option.long ?? ''] ?? byPlaceholder(placeholder, commands));
  return {
    ...spec,
    value: { name: placeholder, optional: option.optional, variadic: option.variadic, values },
  };
}

/** Arguments whose values are the project's schedules: every `schedule` subcommand's name but a new one's. */
const namesSchedule = (path: readonly string[], arg: string) =>
  path[0] === 'schedule' && path[1] !== 'create' && arg === 'name';

function argSpec(arg: Argument, commands: string[], path: readonly string[]): CommandSpec['args'][number] {
  const values: Values = arg.argChoices
    ? { kind: 'choices', choices: arg.argChoices }
    : namesSchedule(path, arg.name())
      ? { kind: 'suite', what: 'schedules', list: false }
      : byPlaceholder(arg.name(), commands);
  return { name: arg.name(), optional: !arg.required, variadic: arg.variadic, values };
}

function commandSpec(command: Command, help: Help, commands: string[], path: string[]): CommandSpec {
  const here = [...path, command.name()];
  const subcommands = help.visibleCommands(command);
  return {
    name: command.name(),
    description: command.description(),
    flags: help.visibleOptions(command).map((o) => flagSpec(o, commands)),
    args: command.registeredArguments.map((a) => argSpec(a, commands, here)),
    ...(subcommands.length
      ? { subcommands: subcommands.map((sub) => commandSpec(sub, help, commands, here)) }
      : {}),
  };
}

/** Reads the visible commands, their flags and arguments off the program `createProgram` built. */
export function completionSpec(program: Command, aliases: readonly string[] = []): CompletionSpec {
  const help = program.createHelp();
  const visible = help.visibleCommands(program);
  const names = visible.map((c) => c.name());
  return {
    names: [program.name(), ...aliases],
    flags: help.visibleOptions(program).map((o) => flagSpec(o, names)),
    commands: visible.map((command) => commandSpec(command, help, names, [])),
  };
}
