// The commands about the shell the program runs in: completion scripts, the hidden `__complete`, the version.
import { Argument } from 'commander';
import type { SuiteFlags } from './options.ts';
import { suiteOptions } from './option-groups.ts';
import { COMPLETE_COMMAND, COMPLETION_SHELLS, COMPLETION_VALUES, type ProgramParts } from './handlers.ts';

/** `completion SHELL`: the shell completion script. */
export function completionCommand({ program, commands, io, run }: ProgramParts): void {
  program
    .command('completion')
    .description('print a shell completion script: source <(llm-evals completion bash)')
    .addArgument(new Argument('<shell>', 'the shell').choices(COMPLETION_SHELLS))
    .action((shell: string) => run(() => commands.completion(shell, program, io))());
}

/** The hidden `__complete WHAT`: the suite's values a completion script asks for. */
export function completeCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(program.command(COMPLETE_COMMAND, { hidden: true }))
    .addArgument(new Argument('<what>', 'what to list').choices(COMPLETION_VALUES))
    .action((what: string, flags: SuiteFlags) => run(() => commands.complete(what, flags, io))());
}

/** `version`: the version, as `--version` prints it. */
export function versionCommand({ program, io, version }: ProgramParts): void {
  program
    .command('version')
    .description('print the version')
    .action(() => {
      io.stdout.write(`llm-evals ${version}\n`);
    });
}
