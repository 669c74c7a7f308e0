import { CommanderError } from 'commander';
import { expect } from 'vitest';
import type { Io } from '../../src/cli/io.ts';
import type { RunFlags, SuiteFlags } from '../../src/cli/options.ts';
import { createProgram, type Commands, type HelpInfo } from '../../src/cli/program.ts';

// The command line's parser (src/cli/program.ts) with handlers that only record what they were given: which handler
// one command line reaches, with which flags, and how a wrong one is refused having reached none.

/** One handler's call: which command, the flags it was given, and the Io. */
export type Call = { command: keyof Commands; flags: RunFlags | SuiteFlags; io: Io };

/** The help facts the program is made with: a version and two request types. */
export const HELP: HelpInfo = {
  version: '9.8.7',
  requestTypes: [
    { type: 'prompt', description: 'chat text in, text out', providers: ['openrouter', 'fake'] },
    { type: 'typesafe', description: 'typed questions', providers: ['typesafe'] },
  ],
};

/** A program whose handlers only record what they were given and return `code`. */
export function recording(code = 0) {
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
export async function flagsOf(args: string[]): Promise<RunFlags> {
  const calls = await recording().parse(args);
  expect(calls).toHaveLength(1);
  return calls[0]!.flags;
}

/** The CommanderError a command line fails with, having called no handler. */
export async function rejection(args: string[]): Promise<{ error: CommanderError; stderr: string }> {
  const cli = recording();
  const error: unknown = await cli.parse(args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(cli.calls).toEqual([]);
  if (!(error instanceof CommanderError)) throw new Error(`expected a CommanderError for ${args.join(' ')}`);
  return { error, stderr: cli.stderr() };
}
