import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.ts';
import type { RunFlags, SuiteFlags } from '../../src/cli/options.ts';
import { createProgram, type Commands, type HelpInfo } from '../../src/cli/program.ts';

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
    weights: handler('weights'),
    render: (file, flags, given) => handler('render')({ ...flags, file } as RunFlags, given),
    start: handler('start'),
    worker: handler('worker'),
    resume: (runId, flags, given) => handler('resume')({ ...flags, runId } as RunFlags, given),
    status: (runId, flags, given) => handler('status')({ ...flags, runId } as SuiteFlags, given),
    report: (runId, flags, given) => handler('report')({ ...flags, runId } as RunFlags, given),
    rescore: (target, flags, given) => handler('rescore')({ ...flags, target } as RunFlags, given),
    track: (target, flags, given) => handler('track')({ ...flags, target } as RunFlags, given),
    runs: handler('runs'),
    cancel: (runId, flags, given) => handler('cancel')({ ...flags, runId } as SuiteFlags, given),
    answer: (runId, goOn, flags, given) => handler('answer')({ ...flags, runId, goOn } as SuiteFlags, given),
    upgradeConfig: handler('upgradeConfig'),
    init: (given) => handler('init')({}, given),
    completion: (shell, program, given) => handler('completion')({ shell, program } as SuiteFlags, given),
    complete: (what, flags, given) => handler('complete')({ ...flags, what } as SuiteFlags, given),
    schedule: (action, name, flags, given) =>
      handler('schedule')({ ...flags, action, name } as SuiteFlags, given),
    diff: (a, b, flags, given) => handler('diff')({ ...flags, a, b } as SuiteFlags, given),
    label: (run, kase, contender, value, flags, given) =>
      handler('label')({ ...flags, run, kase, contender, value } as SuiteFlags, given),
    agreement: (run, flags, given) => handler('agreement')({ ...flags, run } as SuiteFlags, given),
    view: handler('view'),
    codecServer: (flags, given) => handler('codecServer')(flags as SuiteFlags, given),
    cache: (action, flags, given) => handler('cache')({ ...flags, action } as SuiteFlags, given),
  };
  const { program, exitCode } = createProgram(commands, io, HELP);
  const parse = async (args: string[]) => {
    await program.parseAsync(args, { from: 'user' });
    return calls;
  };
  return { parse, calls, io, program, stdout: () => out.join(''), stderr: () => err.join(''), exitCode };
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

describe('createProgram: start, worker, resume, status, report, runs and cancel (D4)', () => {
  /** The one handler a command line reached, and the flags (with the run id, when it takes one) it was given. */
  async function dispatch(args: string[]) {
    const cli = recording();
    const calls = await cli.parse(args);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.io).toBe(cli.io);
    return { command: calls[0]!.command, flags: calls[0]!.flags as Record<string, unknown> };
  }

  it.each<[string, string[], keyof Commands, Record<string, unknown>]>([
    [
      'start: a worker by default',
      ['start'],
      'start',
      { search: true, worker: true, verify: true, cache: true },
    ],
    [
      'start --no-worker',
      ['start', '--no-worker'],
      'start',
      { search: true, worker: false, verify: true, cache: true },
    ],
    ['worker', ['worker'], 'worker', { search: true }],
    ['worker --until RUN', ['worker', '--until', 'r-1'], 'worker', { search: true, until: 'r-1' }],
    ['resume RUN', ['resume', 'r-1'], 'resume', { search: true, open: true, runId: 'r-1' }],
    ['status of the newest run', ['status'], 'status', { search: true, runId: undefined }],
    ['status RUN', ['status', 'r-1'], 'status', { search: true, runId: 'r-1' }],
    ['report RUN', ['report', 'r-1'], 'report', { search: true, open: true, runId: 'r-1' }],
    ['runs', ['runs'], 'runs', { search: true }],
    ['cancel RUN', ['cancel', 'r-1'], 'cancel', { search: true, runId: 'r-1' }],
    ['rescore RUN', ['rescore', 'r-1'], 'rescore', { search: true, open: true, target: 'r-1' }],
  ])('%s: exactly these flags', async (_, args, command, want) => {
    expect(await dispatch(args)).toEqual({ command, flags: want });
  });

  it.each<[string, string[], Record<string, unknown>]>([
    ['start -m takes several ids', ['start', '-m', 'a/x', 'b/y', '--no-worker'], { models: ['a/x', 'b/y'] }],
    [
      'start takes the run flags',
      ['start', '-d', 'x,y', '-c', 'clear', '-p', '3', '-j', '0', '-e', 'low', '-t', '0.5'],
      {
        dataset: ['x', 'y'],
        case: ['clear'],
        parallelism: 3,
        concurrency: 0,
        effort: ['low'],
        temperature: [0.5],
      },
    ],
    ['start -C and -v', ['start', '-C', 'evals/x.yml', '-v'], { config: 'evals/x.yml', verbose: true }],
    [
      'worker --helper and --no-search',
      ['worker', '--helper', 'h.ts', '--no-search'],
      { helper: 'h.ts', search: false },
    ],
    ['worker -C', ['worker', '-C', 'x.yml', '--until', 'r-2'], { config: 'x.yml', until: 'r-2' }],
    [
      'resume takes the report flags',
      ['resume', 'r-1', '--no-autosave', '--totals', 'both'],
      { autosave: false, totals: 'both' },
    ],
    ['resume -y', ['resume', 'r-1', '-y'], { runId: 'r-1', yes: true }],
    [
      'status --watch --json',
      ['status', 'r-1', '--watch', '--json'],
      { runId: 'r-1', watch: true, json: true },
    ],
    ['status --json of the newest', ['status', '--json'], { runId: undefined, json: true }],
    [
      'report --format json -o FILE',
      ['report', 'r-1', '--format', 'json', '-o', 'out.json'],
      { runId: 'r-1', format: 'json', output: 'out.json' },
    ],
    ['report -o alone', ['report', 'r-1', '-o'], { output: true }],
    [
      'report --format html --no-open',
      ['report', 'r-1', '--format', 'html', '--no-open'],
      { format: 'html', open: false },
    ],
    ['runs --json --limit', ['runs', '--json', '--limit', '5'], { json: true, limit: 5 }],
    ['cancel -C', ['cancel', 'r-1', '-C', 'x.yml'], { runId: 'r-1', config: 'x.yml' }],
  ])('%s', async (_, args, want) => {
    expect((await dispatch(args)).flags).toMatchObject(want);
  });

  it.each([
    ['resume without a run', ['resume'], 'commander.missingArgument'],
    ['report without a run', ['report', '--format', 'json'], 'commander.missingArgument'],
    ['cancel without a run', ['cancel'], 'commander.missingArgument'],
    ['status of two runs', ['status', 'r-1', 'r-2'], 'commander.excessArguments'],
    ['cancel of two runs', ['cancel', 'r-1', 'r-2'], 'commander.excessArguments'],
    ['a run flag on worker', ['worker', '-d', 'x'], 'commander.unknownOption'],
    ['--until on start', ['start', '--until', 'r-1'], 'commander.unknownOption'],
    ['--no-worker on worker', ['worker', '--no-worker'], 'commander.unknownOption'],
    ['--watch on runs', ['runs', '--watch'], 'commander.unknownOption'],
    ['a run flag on status', ['status', 'r-1', '-p', '2'], 'commander.unknownOption'],
    ['a run flag on cancel', ['cancel', 'r-1', '-j', '2'], 'commander.unknownOption'],
    ['--until without its run', ['worker', '--until'], 'commander.optionMissingArgument'],
    ['report --format pdf', ['report', 'r-1', '--format', 'pdf'], 'commander.invalidArgument'],
    ['start -p 0', ['start', '-p', '0'], 'commander.invalidArgument'],
  ])('refuses %s', async (_, args, code) => {
    const { error } = await rejection(args);
    expect(error.code).toBe(code);
    expect(error.exitCode).not.toBe(0);
  });

  it.each([
    [['runs', '--limit', '0'], /--limit takes a whole number ≥ 1, got "0"/],
    [['runs', '--limit', 'all'], /--limit takes a whole number ≥ 1, got "all"/],
  ])('%j', async (args, message) => {
    const { error, stderr } = await rejection(args);
    expect(error.code).toBe('commander.invalidArgument');
    expect(stderr).toMatch(message);
  });

  it.each(['start', 'worker', 'resume', 'status', 'report', 'runs', 'cancel'])(
    'lists %s in --help',
    async (command) => {
      const cli = recording();
      await cli.parse(['--help']).catch(() => undefined);
      expect(cli.stdout()).toMatch(new RegExp(`^ {2}${command}\\b`, 'm'));
    },
  );
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
