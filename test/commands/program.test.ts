import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import type { RunFlags } from '../../src/cli/options.ts';
import type { Commands } from '../../src/cli/program.ts';
import { flagsOf, recording, rejection } from './program-harness.ts';

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
    ['--no-cache', ['compare', '--no-cache'], { cache: false }],
    ['--cache-only', ['run', '-m', 'a/b', '--cache-only'], { cache: true, cacheOnly: true }],
    ['start --no-cache', ['start', '--no-cache'], { cache: false }],
    ['--batch', ['compare', '--batch'], { batch: true, cache: true }],
    ['start --batch', ['start', '--batch'], { batch: true }],
    [
      'schedule create --cache',
      ['schedule', 'create', 'nightly', '--every', '1d', '--cache'],
      { cache: true },
    ],
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
    expect(await flagsOf(['compare'])).toEqual({ search: true, open: true, verify: true, cache: true });
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

  it('refuses --cache-only beside --no-cache, naming both', async () => {
    const cli = recording();
    await expect(cli.parse(['compare', '--no-cache', '--cache-only'])).rejects.toThrow();
    expect(cli.stderr()).toMatch(/--cache-only.*cannot be used with.*--no-cache/);
    expect(cli.calls).toEqual([]);
  });

  it.each([
    [['cache', 'stats'], { action: 'stats' }],
    [['cache', 'stats', '--json'], { action: 'stats', json: true }],
    [['cache', 'prune', '--older-than', '30d'], { action: 'prune', olderThan: '30d' }],
    [['cache', 'clear'], { action: 'clear' }],
  ])('%j goes to the cache handler', async (args, want) => {
    const calls = await recording().parse(args);
    expect(calls.map((c) => c.command)).toEqual(['cache']);
    expect(calls[0]!.flags).toEqual(want);
  });

  it('returns the handler’s exit code', async () => {
    const cli = recording(3);
    await cli.parse(['verify']);
    expect(cli.exitCode()).toBe(3);
  });
});

describe('createProgram: weights, render, --scores, upgrade-config and completion', () => {
  it.each<[string, string[], keyof Commands, Record<string, unknown>]>([
    ['--scores on compare', ['compare', '--scores'], 'compare', { scores: true }],
    ['--scores on run', ['run', '-m', 'a/b', '--scores'], 'run', { scores: true, models: ['a/b'] }],
    ['weights takes the suite flags', ['weights', '-C', 'x.yml'], 'weights', { config: 'x.yml' }],
    ['render takes a file', ['render', 'r.json'], 'render', { file: 'r.json' }],
    ['render -o FILE', ['render', 'r.json', '-o', 'r.html'], 'render', { file: 'r.json', output: 'r.html' }],
    ['render -o alone', ['render', 'r.json', '-o'], 'render', { output: true }],
    [
      'render --format --totals --scores',
      ['render', 'r.json', '--format', 'tui', '--totals', 'both', '--scores'],
      'render',
      { format: 'tui', totals: 'both', scores: true },
    ],
    ['upgrade-config', ['upgrade-config'], 'upgradeConfig', { search: true }],
    [
      'upgrade-config -n -C',
      ['upgrade-config', '-n', '-C', 'x.yml'],
      'upgradeConfig',
      { dryRun: true, config: 'x.yml' },
    ],
    ['init takes no flags', ['init'], 'init', {}],
    ['completion bash', ['completion', 'bash'], 'completion', { shell: 'bash' }],
    ['completion zsh', ['completion', 'zsh'], 'completion', { shell: 'zsh' }],
    [
      '__complete with the suite flags',
      ['__complete', 'datasets', '-C', 'x.yml'],
      'complete',
      { what: 'datasets', config: 'x.yml' },
    ],
  ])('%s', async (_, args, command, want) => {
    const calls = await recording().parse(args);
    expect(calls.map((c) => c.command)).toEqual([command]);
    expect(calls[0]!.flags).toMatchObject(want);
  });

  it.each([
    ['render without a file', ['render'], 'commander.missingArgument'],
    ['completion for an unknown shell', ['completion', 'fish'], 'commander.invalidArgument'],
    ['__complete of an unknown kind', ['__complete', 'colours'], 'commander.invalidArgument'],
    ['render with a run flag', ['render', 'r.json', '-d', 'x'], 'commander.unknownOption'],
    ['init with a suite flag', ['init', '-C', 'x.yml'], 'commander.unknownOption'],
  ])('refuses %s', async (_, args, code) => {
    const { error } = await rejection(args);
    expect(error.code).toBe(code);
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

  it('lists upgrade-config and completion in --help, but not the hidden __complete', async () => {
    const cli = recording();
    expect(await settle(cli, ['--help'])).toBe(0);
    expect(cli.stdout()).toMatch(/^ {2}upgrade-config \[options\]/m);
    expect(cli.stdout()).toMatch(/^ {2}completion <shell>/m);
    expect(cli.stdout()).not.toContain('__complete');
  });

  it.each([[['version']], [['-V']], [['--version']]])('%j prints llm-evals <version>', async (args) => {
    const cli = recording();
    expect([undefined, 0]).toContain(await settle(cli, args));
    expect(cli.stdout()).toBe('llm-evals 9.8.7\n');
    expect(cli.calls).toEqual([]);
  });
});

describe('createProgram: each command takes only the flags that mean something to it (C5)', () => {
  const help = (command: string) => {
    const { program, stdout } = recording();
    program.commands.find((c) => c.name() === command)!.outputHelp();
    return stdout();
  };
  it.each([
    ['cases', ['--dataset', '--case'], ['--effort', '--format', '--autosave', '--yes', '--dry-run']],
    [
      'report',
      ['--format', '--totals', '--no-open'],
      ['--effort', '--temperature', '--dry-run', '--autosave', '--yes'],
    ],
    ['start', ['--effort', '--dry-run', '--tracker'], ['--format', '--no-open', '--yes', '--autosave']],
    ['resume', ['--format', '--yes', '--autosave'], ['--effort', '--dry-run', '--dataset']],
    ['compare', ['--effort', '--format', '--autosave', '--yes', '--tracker', '--dataset'], []],
  ])('%s takes %j and not %j', (command, takes, refuses) => {
    const text = help(command);
    for (const flag of takes) expect(text).toContain(flag);
    for (const flag of refuses) expect(text).not.toContain(flag);
  });
});
