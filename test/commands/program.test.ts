import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/commands/io.ts';
import type { RunFlags, SuiteFlags } from '../../src/commands/options.ts';
import { createProgram, type Commands, type HelpInfo } from '../../src/commands/program.ts';

type Call = { command: keyof Commands; flags: RunFlags | SuiteFlags; io: Io };

const HELP: HelpInfo = {
  version: '9.8.7',
  requestTypes: [
    { type: 'prompt', description: 'chat text in, text out', providers: ['openrouter', 'fake'] },
    { type: 'typesafe', description: 'typed questions', providers: ['typesafe'] },
  ],
};

/** A program whose handlers only record what they were given and return `code`. */
function recording(code = 0) {
  const out: string[] = [];
  const err: string[] = [];
  const io: Io = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    cwd: '/somewhere',
    env: {},
    interactive: false,
  };
  const calls: Call[] = [];
  const handler =
    (command: keyof Commands) =>
    (flags: RunFlags | SuiteFlags, given: Io): Promise<number> => {
      calls.push({ command, flags, io: given });
      return Promise.resolve(code);
    };
  const commands: Commands = {
    cases: handler('cases'),
    verify: handler('verify'),
    compare: handler('compare'),
    run: handler('run'),
    server: (_action, flags, given) => handler('server')(flags, given),
  };
  const { program, exitCode } = createProgram(commands, io, HELP);
  const parse = async (args: string[]) => {
    await program.parseAsync(args, { from: 'user' });
    return calls;
  };
  return { parse, calls, io, stdout: () => out.join(''), stderr: () => err.join(''), exitCode };
}

/** The flags one command line hands its handler. */
async function flagsOf(args: string[]): Promise<RunFlags> {
  const calls = await recording().parse(args);
  expect(calls).toHaveLength(1);
  return calls[0]!.flags;
}

/** The CommanderError a command line fails with, having called no handler. */
async function rejection(args: string[]): Promise<{ error: CommanderError; stderr: string }> {
  const cli = recording();
  const error: unknown = await cli.parse(args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(cli.calls).toEqual([]);
  if (!(error instanceof CommanderError)) throw new Error(`expected a CommanderError for ${args.join(' ')}`);
  return { error, stderr: cli.stderr() };
}

describe('createProgram: flags', () => {
  it.each<[string, string[], Partial<RunFlags>]>([
    ['-m takes several ids', ['run', '-m', 'a/x', 'b/y'], { models: ['a/x', 'b/y'] }],
    [
      '--models takes several ids',
      ['run', '--models', 'a/x', '-d', 'z'],
      { models: ['a/x'], dataset: ['z'] },
    ],
    ['-d splits commas and repeats', ['compare', '-d', 'x,y', '-d', 'z'], { dataset: ['x', 'y', 'z'] }],
    ['-d trims and drops empty names', ['compare', '-d', ' x , ,y'], { dataset: ['x', 'y'] }],
    ['-c takes variants and cases', ['cases', '-c', 'clear,tricky/003'], { case: ['clear', 'tricky/003'] }],
    ['-e splits commas', ['compare', '-e', 'low,high'], { effort: ['low', 'high'] }],
    ['-t takes numbers', ['compare', '-t', '0,0.7'], { temperature: [0, 0.7] }],
    ['-t repeats', ['compare', '-t', '0.1', '--temperature', '2'], { temperature: [0.1, 2] }],
    ['--max-tokens', ['compare', '--max-tokens', '512'], { maxTokens: 512 }],
    ['-p', ['compare', '-p', '8'], { parallelism: 8 }],
    ['-j 0 means all', ['compare', '-j', '0'], { concurrency: 0 }],
    ['-j N', ['compare', '-j', '3'], { concurrency: 3 }],
    ['--no-autosave', ['compare', '--no-autosave'], { autosave: false }],
    ['--autosave', ['compare', '--autosave'], { autosave: true }],
    ['--no-open', ['compare', '--no-open'], { open: false }],
    ['-o without a file', ['compare', '-o'], { output: true }],
    ['-o with a file', ['compare', '-o', 'report.html'], { output: 'report.html' }],
    ['-o before another flag', ['compare', '-o', '-n'], { output: true, dryRun: true }],
    ['-n', ['compare', '-n'], { dryRun: true }],
    ['--dry-run', ['run', '-m', 'a/b', '--dry-run'], { dryRun: true, models: ['a/b'] }],
    ['--format', ['compare', '--format', 'json'], { format: 'json' }],
    ['--totals', ['compare', '--totals', 'both'], { totals: 'both' }],
    ['--display', ['compare', '--display', 'none'], { display: 'none' }],
    ['-C', ['verify', '-C', 'evals/x.yml'], { config: 'evals/x.yml' }],
    ['--config', ['cases', '--config', 'x.yml'], { config: 'x.yml' }],
    ['--helper', ['cases', '--helper', 'evals/eval_helper.ts'], { helper: 'evals/eval_helper.ts' }],
    ['--no-search', ['verify', '--no-search'], { search: false }],
    ['-v', ['verify', '-v'], { verbose: true }],
    ['-y', ['compare', '-y'], { yes: true }],
    [
      'tracker flags',
      ['compare', '--tracker', 'logfire', '--project', 'p', '--local'],
      { tracker: 'logfire', project: 'p', local: true },
    ],
    [
      'output places',
      ['compare', '--destination', 'out', '--temp-dir', 'scratch'],
      { destination: 'out', tempDir: 'scratch' },
    ],
  ])('%s', async (_, args, want) => {
    expect(await flagsOf(args)).toMatchObject(want);
  });

  it('leaves unset flags out and defaults the negatable ones', async () => {
    expect(await flagsOf(['compare'])).toEqual({ search: true, open: true });
    expect(await flagsOf(['verify'])).toEqual({ search: true });
  });

  it.each([
    ['cases', ['cases']],
    ['verify', ['verify']],
    ['compare', ['compare']],
    ['run', ['run', '-m', 'x/y']],
  ] as const)('dispatches %s to its handler with the io', async (command, args) => {
    const cli = recording();
    const calls = await cli.parse([...args]);
    expect(calls.map((c) => c.command)).toEqual([command]);
    expect(calls[0]?.io).toBe(cli.io);
  });

  it('returns the handler’s exit code', async () => {
    const cli = recording(3);
    await cli.parse(['verify']);
    expect(cli.exitCode()).toBe(3);
  });
});

describe('createProgram: invalid values', () => {
  it.each([
    [['compare', '-p', 'x'], /-p takes a whole number ≥ 1, got "x"/],
    [['compare', '-p', '0'], /-p takes a whole number ≥ 1, got "0"/],
    [['compare', '-p', '1.5'], /-p takes a whole number ≥ 1/],
    [['compare', '--max-tokens', '0'], /--max-tokens takes a whole number ≥ 1/],
    [['compare', '-j', 'all'], /takes a whole number ≥ 0, got "all"/],
    [['compare', '-j', '-1'], /takes a whole number ≥ 0, got "-1"/],
    [['compare', '-t', '3'], /takes temperatures from 0 to 2, got "3"/],
    [['compare', '-t', '0.5,hot'], /takes temperatures from 0 to 2, got "hot"/],
    [['compare', '-t', '-0.1'], /takes temperatures from 0 to 2/],
    [['compare', '--format', 'pdf'], /argument 'pdf' is invalid. Allowed choices are tui, html, json/],
    [['compare', '--totals', 'all'], /Allowed choices are overall, variant, both/],
    [['compare', '--display', 'both'], /Allowed choices are none, tui, browser/],
  ])('%j', async (args, message) => {
    const { error, stderr } = await rejection(args);
    expect(error.code).toBe('commander.invalidArgument');
    expect(error.exitCode).not.toBe(0);
    expect(stderr).toMatch(message);
    expect(stderr).toContain('(add --help for usage)');
  });

  it.each([
    ['run without -m', ['run'], 'commander.missingMandatoryOptionValue'],
    ['an unknown command', ['frobnicate'], 'commander.unknownCommand'],
    ['an unknown flag', ['cases', '--frob'], 'commander.unknownOption'],
    ['a run flag on verify', ['verify', '-d', 'x'], 'commander.unknownOption'],
    ['a flag missing its value', ['compare', '-p'], 'commander.optionMissingArgument'],
  ])('refuses %s', async (_, args, code) => {
    const { error } = await rejection(args);
    expect(error.code).toBe(code);
  });
});

describe('createProgram: help and version', () => {
  /** Parses, returning the exit code commander asked for (help and version stop with 0), or undefined. */
  const settle = (cli: ReturnType<typeof recording>, args: string[]) =>
    cli.parse(args).then(
      () => undefined,
      (error: unknown) => (error instanceof CommanderError ? error.exitCode : error),
    );

  it('lists each request type with its providers in --help', async () => {
    const cli = recording();
    expect(await settle(cli, ['--help'])).toBe(0);
    expect(cli.stdout()).toMatch(
      /Request types \(.*request_types\):\n {2}prompt {4}chat text in, text out \(openrouter, fake\)\n {2}typesafe {2}typed questions \(typesafe\)/,
    );
    expect(cli.stdout()).toMatch(/^ {2}cases \[options\]/m);
    expect(cli.calls).toEqual([]);
  });

  it.each([[['version']], [['-V']], [['--version']]])('%j prints llm-evals <version>', async (args) => {
    const cli = recording();
    expect([undefined, 0]).toContain(await settle(cli, args));
    expect(cli.stdout()).toBe('llm-evals 9.8.7\n');
    expect(cli.calls).toEqual([]);
  });
});
