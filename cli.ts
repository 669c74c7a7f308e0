import { CommanderError } from 'commander';
import pc from 'picocolors';
import { processIo, type Io } from './src/commands/io.ts';
import { VERSION } from './src/package-root.ts';
import { createProgram, type Commands } from './src/commands/program.ts';
import { builtinProviders } from './src/providers/builtin.ts';
import { TemporalSetupError } from './temporal/errors.ts';
import { ProviderRegistry } from './src/providers/registry.ts';

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
  worker: async (flags, io) => (await import('./src/commands/worker.ts')).workerCommand(flags, io),
  resume: async (runId, flags, io) =>
    (await import('./src/commands/resume.ts')).resumeCommand(runId, flags, io),
  status: async (runId, flags, io) =>
    (await import('./src/commands/status.ts')).statusCommand(runId, flags, io),
  report: async (runId, flags, io) =>
    (await import('./src/commands/report.ts')).reportCommand(runId, flags, io),
  runs: async (flags, io) => (await import('./src/commands/runs.ts')).runsCommand(flags, io),
  cancel: async (runId, flags, io) =>
    (await import('./src/commands/runs.ts')).cancelCommand(runId, flags, io),
  answer: async (runId, goOn, flags, io) =>
    (await import('./src/commands/runs.ts')).answerCommand(runId, goOn, flags, io),
  init: async (io) => (await import('./src/commands/init.ts')).initCommand(io),
  upgradeConfig: async (flags, io) =>
    (await import('./src/commands/upgrade-config.ts')).upgradeConfigCommand(flags, io),
  completion: async (shell, program, io) =>
    (await import('./src/commands/completion.ts')).completionCommand(shell, program, io),
  complete: async (what, flags, io) =>
    (await import('./src/commands/complete.ts')).completeCommand(what, flags, io),
};

function failureType(error: unknown): string | undefined {
  return error instanceof Error && 'type' in error && typeof error.type === 'string' ? error.type : undefined;
}

/** Runs the CLI and returns its exit code: the one place errors become messages (0 ok, 1 failed run, 2 bad input). */
export async function main(argv: readonly string[], io: Io = processIo()): Promise<number> {
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const help = {
    version: VERSION,
    requestTypes: new ProviderRegistry(builtinProviders()).requestTypes(),
  };
  const { program, exitCode } = createProgram(commands, io, help);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode();
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    const type = failureType(error);
    const text = error instanceof Error ? error.message : String(error);
    io.stderr.write(pc.red(`llm-evals: ${text}`) + '\n');
    if (verbose && error instanceof Error) io.stderr.write(`${error.stack}\n`);
    if (type === 'ConfigError' || error instanceof TemporalSetupError) return 2;
    if (type === 'RunFailed') return 1;
    if (type === 'Interrupted') return 130;
    if (!verbose) io.stderr.write('(run again with -v for the stack trace)\n');
    return 1;
  }
}
