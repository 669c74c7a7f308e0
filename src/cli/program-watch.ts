// The commands that watch, read, answer or end runs already made: status, report, track, runs, view, cancel,
// continue/stop, diff, render.
import { Option } from 'commander';
import type { RenderFlags } from '../commands/render.ts';
import type { ViewFlags } from '../commands/view.ts';
import type { DiffFlags, RunFlags, StatusFlags, TrackFlags } from './options.ts';
import { VIEW_PORT } from './options.ts';
import { positiveInt, wholeNumber } from './arg-parsers.ts';
import { suiteOptions, trackerOptions, reportOptions } from './option-groups.ts';
import type { ProgramParts } from './handlers.ts';

/** `status [RUN]`: a run's progress and state. */
export function statusCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(
    program.command('status').description("a run's progress per experiment, state, ETA and UI link"),
  )
    .argument('[run]', 'the run id (default: the newest)')
    .option('--watch', 'redraw until the run closes')
    .option('--json', 'print JSON')
    .action((runId: string | undefined, flags: StatusFlags) =>
      run(() => commands.status(runId, flags, io))(),
    );
}

/** `report RUN`: a run's report from Temporal's data. */
export function reportCommand({ program, commands, io, run }: ProgramParts): void {
  reportOptions(
    suiteOptions(
      program.command('report').description("a run's report from Temporal's data, partial while it runs"),
    ),
  )
    .option('--allow-failures', 'exit 0 even when a contender produced no scored case')
    .argument('<run>', 'the run id')
    .action((runId: string, flags: RunFlags) => run(() => commands.report(runId, flags, io))());
}

/** `track RUN`: a finished run sent again to the trackers. */
export function trackCommand({ program, commands, io, run }: ProgramParts): void {
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
}

/** `runs`: the recent runs of this project (or of every project). */
export function runsCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(program.command('runs').description('recent runs of this project (--all: of every project)'))
    .option('--all', 'the runs of every project on this Temporal')
    .option('--json', 'print JSON')
    .option('--limit <n>', 'how many', positiveInt('--limit'))
    .action((flags: StatusFlags & { limit?: number; all?: boolean }) =>
      run(() => commands.runs(flags, io))(),
    );
}

/** `view`: every run in the browser, live. */
export function viewCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(program.command('view').description('every run in the browser, live (127.0.0.1)'))
    .option('--port <n>', `the port (default: ${VIEW_PORT}; 0: any free one)`, wholeNumber)
    .option('--host <host>', 'the address to listen on; other than loopback needs a token')
    .option('--token <token>', 'the token a non-loopback view asks for (else one is made and printed)')
    .option('--no-open', 'print the address, open no browser')
    .action((flags: ViewFlags) => run(() => commands.view(flags, io))());
}

/** `cancel RUN`: a run cancelled with its experiments. */
export function cancelCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(program.command('cancel').description('cancel a run and its experiments still running'))
    .argument('<run>', 'the run id')
    .action((runId: string, flags: StatusFlags) => run(() => commands.cancel(runId, flags, io))());
}

/** `continue RUN` and `stop RUN`: the answers to a run paused after a streak of failures. */
export function answerCommand({ program, commands, io, run }: ProgramParts): void {
  for (const [name, goOn, what] of [
    ['continue', true, 'go on with a run paused after a streak of failures'],
    ['stop', false, 'stop a paused run; it reports what finished'],
  ] as const) {
    suiteOptions(program.command(name).description(what))
      .argument('<run>', 'the run id')
      .action((runId: string, flags: StatusFlags) => run(() => commands.answer(runId, goOn, flags, io))());
  }
}

/** `diff A B`: the change between two runs. */
export function diffCommand({ program, commands, io, run }: ProgramParts): void {
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
}

/** `render FILE`: a saved run drawn as HTML, the TUI or JSON. */
export function renderCommand({ program, commands, io, run }: ProgramParts): void {
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
}
