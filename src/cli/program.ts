// The command-line parser, assembled: the program, its help, and every command in the order `--help` lists them.
// Each command is declared in the module of its family (program-suite.ts, program-run.ts, program-watch.ts,
// program-server.ts, program-shell.ts) with the flags it shares from option-groups.ts; the handlers are injected
// (Commands), so this parses and runs nothing.
import { Command } from 'commander';
import type { Io } from './io.ts';
import type { Commands, ProgramParts } from './handlers.ts';
import {
  compareCommand,
  rescoreCommand,
  resumeCommand,
  runCommand,
  startCommand,
  workerCommand,
} from './program-run.ts';
import { cacheCommand, codecServerCommand, scheduleCommand, serverCommand } from './program-server.ts';
import { completeCommand, completionCommand, versionCommand } from './program-shell.ts';
import {
  agreementCommand,
  casesCommand,
  initCommand,
  labelCommand,
  upgradeConfigCommand,
  verifyCommand,
  weightsCommand,
} from './program-suite.ts';
import {
  answerCommand,
  cancelCommand,
  diffCommand,
  renderCommand,
  reportCommand,
  runsCommand,
  statusCommand,
  trackCommand,
  viewCommand,
} from './program-watch.ts';

export type { Commands } from './handlers.ts';
export { COMPLETE_COMMAND, COMPLETION_SHELLS, COMPLETION_VALUES } from './handlers.ts';

/** What `--help` says about providers: each request type and who serves it. */
export interface HelpInfo {
  version: string;
  requestTypes: { type: string; description: string; providers: string[] }[];
}

/** The commands in the order `--help` lists them. */
const COMMANDS: ((parts: ProgramParts) => void)[] = [
  casesCommand,
  verifyCommand,
  compareCommand,
  runCommand,
  serverCommand,
  startCommand,
  workerCommand,
  resumeCommand,
  statusCommand,
  reportCommand,
  rescoreCommand,
  trackCommand,
  runsCommand,
  viewCommand,
  codecServerCommand,
  cancelCommand,
  weightsCommand,
  renderCommand,
  answerCommand,
  scheduleCommand,
  diffCommand,
  labelCommand,
  agreementCommand,
  cacheCommand,
  initCommand,
  upgradeConfigCommand,
  completionCommand,
  completeCommand,
  versionCommand,
];

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
  for (const define of COMMANDS) define({ program, commands, io, run, version: help.version });
  return { program, exitCode: () => code };
}
