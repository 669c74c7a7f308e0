import { describe, expect, it } from 'vitest';
import type { Commands } from '../../src/cli/program.ts';
import { recording, rejection } from './program-harness.ts';

// The run commands' lines (D4): which handler each reaches with which run id and flags, and the flags each refuses.

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
