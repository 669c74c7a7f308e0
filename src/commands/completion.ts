import type { Command } from 'commander';
import { ConfigError } from '../errors.ts';
import { bashScript } from '../cli/completion-bash.ts';
import { completionSpec } from '../cli/completion-spec.ts';
import { zshScript } from '../cli/completion-zsh.ts';
import type { Io } from '../cli/io.ts';
import { COMPLETE_COMMAND } from '../cli/program.ts';

/** package.json installs the command under this second name too; both complete alike. */
const ALIASES = ['evals'];

/** `completion bash|zsh`: prints a script completing the program's commands, flags and the suite's values. */
export function completionCommand(shell: string, program: Command, io: Io): Promise<number> {
  const spec = completionSpec(program, ALIASES);
  if (shell === 'bash') io.stdout.write(bashScript(spec, COMPLETE_COMMAND));
  else if (shell === 'zsh') io.stdout.write(zshScript(spec, COMPLETE_COMMAND));
  else throw new ConfigError(undefined, 'completion', `no script for the shell ${JSON.stringify(shell)}`);
  return Promise.resolve(0);
}
