import { CommanderError } from 'commander';
import pc from 'picocolors';
import { processIo, type Io } from './src/cli/io.ts';
import { VERSION } from './src/package-root.ts';
import { createProgram, type Commands } from './src/cli/program.ts';
import { builtinProviders } from './src/providers/builtin.ts';
import { ProviderRegistry } from './src/providers/registry.ts';
import { inOurWords } from './src/client/unavailable.ts';
import { mark } from './src/timing.ts';

// Commands load on use, so `--help` and `version` start without Temporal's modules.
const commands: Commands = {
  cases: async (flags, io) => (await import('./src/commands/cases.ts')).casesCommand(flags, io),
  verify: async (flags, io) => (await import('./src/commands/verify.ts')).verifyCommand(flags, io),
  compare: async (flags, io) => (await import('./src/commands/compare.ts')).compareCommand(flags, io),
  run: async (flags, io) =>
    (await import('./src/commands/compare.ts')).compareCommand(flags, io, flags.models),
  server: async (action, flags, io) =>
    (await import('./src/commands/server.ts')).serverCommand(action, flags, io),
  weights: async (flags, io) => (await import('./src/commands/weights.ts')).weightsCommand(flags, io),
  render: async (file, flags, io) =>
    (await import('./src/commands/render.ts')).renderCommand(file, flags, io),
  start: async (flags, io) => (await import('./src/commands/start.ts')).startCommand(flags, io),
  worker: async (flags, io) => (await import('./worker.ts')).workerMain(flags, io),
  resume: async (runId, flags, io) =>
    (await import('./src/commands/resume.ts')).resumeCommand(runId, flags, io),
  status: async (runId, flags, io) =>
    (await import('./src/commands/status.ts')).statusCommand(runId, flags, io),
  report: async (runId, flags, io) =>
    (await import('./src/commands/report.ts')).reportCommand(runId, flags, io),
  rescore: async (target, flags, io) =>
    (await import('./src/commands/rescore.ts')).rescoreCommand(target, flags, io),
  track: async (target, flags, io) =>
    (await import('./src/commands/track.ts')).trackCommand(target, flags, io),
  runs: async (flags, io) => (await import('./src/commands/runs.ts')).runsCommand(flags, io),
  cancel: async (runId, flags, io) =>
    (await import('./src/commands/cancel.ts')).cancelCommand(runId, flags, io),
  answer: async (runId, goOn, flags, io) =>
    (await import('./src/commands/answer.ts')).answerCommand(runId, goOn, flags, io),
  init: async (io) => (await import('./src/commands/init.ts')).initCommand(io),
  upgradeConfig: async (flags, io) =>
    (await import('./src/commands/upgrade-config.ts')).upgradeConfigCommand(flags, io),
  schedule: async (action, name, flags, io) =>
    (await import('./src/commands/schedule.ts')).scheduleCommand(action, name, flags, io),
  diff: async (a, b, flags, io) => (await import('./src/commands/diff.ts')).diffCommand(a, b, flags, io),
  label: async (r, k, c, v, flags, io) =>
    (await import('./src/commands/label.ts')).labelCommand(r, k, c, v, flags, io),
  agreement: async (r, flags, io) =>
    (await import('./src/commands/agreement.ts')).agreementCommand(r, flags, io),
  view: async (flags, io) => (await import('./src/commands/view.ts')).viewCommand(flags, io),
  codecServer: async (flags, io) =>
    (await import('./src/commands/codec-server.ts')).codecServerCommand(flags, io),
  cache: async (action, flags, io) =>
    (await import('./src/commands/cache.ts')).cacheCommand(action, flags, io),
  completion: async (shell, program, io) =>
    (await import('./src/commands/completion.ts')).completionCommand(shell, program, io),
  complete: async (what, flags, io) =>
    (await import('./src/commands/complete.ts')).completeCommand(what, flags, io),
};

/** The exit code an error asks for (its class decides: 2 bad input, 130 interrupted), else 1 for a failure of ours. */
function exitCodeOf(error: unknown): number | undefined {
  const code = (error as { exitCode?: unknown } | null)?.exitCode;
  return typeof code === 'number' ? code : undefined;
}

/** Runs the CLI and returns its exit code: the one place errors become messages (0 ok, 1 failed run, 2 bad input). */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  mark('cli');
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const help = {
    version: VERSION,
    requestTypes: new ProviderRegistry(builtinProviders()).requestTypes(),
  };
  const { program, exitCode } = createProgram(commands, io, help);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode();
  } catch (thrown) {
    if (thrown instanceof CommanderError) return thrown.exitCode === 0 ? 0 : 2;
    const error = inOurWords(thrown) ?? thrown;
    const text = error instanceof Error ? error.message : String(error);
    io.stderr.write(pc.red(`llm-evals: ${text}`) + '\n');
    if (verbose && error instanceof Error) io.stderr.write(`${error.stack}\n`);
    const code = exitCodeOf(error);
    if (code === undefined && !verbose) io.stderr.write('(run again with -v for the stack trace)\n');
    return code ?? 1;
  }
}
