// The commands that run a plan or serve a run: compare, run, start, worker, resume, rescore.
import type { RunFlags, StartFlags, WorkerFlags } from './options.ts';
import { positiveInt } from './arg-parsers.ts';
import {
  suiteOptions,
  planOptions,
  trackerOptions,
  reportOptions,
  saveOptions,
  pauseOptions,
  cacheOptions,
  runOptions,
} from './option-groups.ts';
import type { ProgramParts } from './handlers.ts';

/** `compare`: the whole lineup, run and reported. */
export function compareCommand({ program, commands, io, run }: ProgramParts): void {
  runOptions(program.command('compare').description('run the whole lineup; leaderboard and reports')).action(
    (flags: RunFlags) => run(() => commands.compare(flags, io))(),
  );
}

/** `run -m`: the named models, run and reported case by case. */
export function runCommand({ program, commands, io, run }: ProgramParts): void {
  runOptions(program.command('run').description('run the named models, with a per-case breakdown'))
    .requiredOption('-m, --models <ids...>', 'model ids, such as openai/gpt-4.1-mini')
    .action((flags: RunFlags) => run(() => commands.run(flags, io))());
}

/** `start`: a run started and left to a background worker. */
export function startCommand({ program, commands, io, run }: ProgramParts): void {
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
}

/** `worker`: a process that serves the suite's runs. */
export function workerCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(program.command('worker').description("serve this suite's runs (any number, on any machine)"))
    .option('--until <run>', 'leave once this run has closed')
    .option(
      '--max-activities <n>',
      "experiments' pools of calls (and retries) it runs at once; leaves the rest to other workers",
      positiveInt('--max-activities'),
    )
    .action((flags: WorkerFlags) => run(() => commands.worker(flags, io))());
}

/** `resume RUN`: a run served again with the live view, then reported. */
export function resumeCommand({ program, commands, io, run }: ProgramParts): void {
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
}

/** `rescore RUN`: a run's saved replies graded again. */
export function rescoreCommand({ program, commands, io, run }: ProgramParts): void {
  saveOptions(
    reportOptions(
      suiteOptions(
        program
          .command('rescore')
          .description(
            "grade a run's saved replies again with the suite's current scorer and weights; calls no model but a judge whose verdict is not cached",
          ),
      ),
    ),
  )
    .option('--allow-failures', 'exit 0 even when a contender produced no scored case')
    .argument('<run>', 'the run id, or a saved snapshot such as evals/results/<run>.json')
    .action((target: string, flags: RunFlags) => run(() => commands.rescore(target, flags, io))());
}
