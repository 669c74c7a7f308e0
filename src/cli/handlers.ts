// What the program's assembly (program.ts) and its command definitions (program-*.ts) share: the handlers the
// commands dispatch to, what each definition is given, and the names of the hidden completion command.
import type { Command } from 'commander';
import type { Io } from './io.ts';
import type { AgreementFlags } from '../commands/agreement.ts';
import type { CodecServerFlags } from '../commands/codec-server.ts';
import type { LabelFlags } from '../commands/label.ts';
import type { RenderFlags } from '../commands/render.ts';
import type { UpgradeFlags } from '../commands/upgrade-config.ts';
import type { ViewFlags } from '../commands/view.ts';
import type {
  CacheFlags,
  DiffFlags,
  RunFlags,
  ScheduleFlags,
  StartFlags,
  StatusFlags,
  SuiteFlags,
  TrackFlags,
  WorkerFlags,
} from './options.ts';

/** The command handlers the program dispatches to; each returns the exit code. */
export interface Commands {
  cases(flags: RunFlags, io: Io): Promise<number>;
  verify(flags: SuiteFlags, io: Io): Promise<number>;
  compare(flags: RunFlags, io: Io): Promise<number>;
  run(flags: RunFlags, io: Io): Promise<number>;
  server(action: string, flags: SuiteFlags & { force?: boolean }, io: Io): Promise<number>;
  weights(flags: SuiteFlags, io: Io): Promise<number>;
  render(file: string, flags: RenderFlags, io: Io): Promise<number>;
  start(flags: StartFlags, io: Io): Promise<number>;
  worker(flags: WorkerFlags, io: Io): Promise<number>;
  resume(runId: string, flags: RunFlags, io: Io): Promise<number>;
  status(runId: string | undefined, flags: StatusFlags, io: Io): Promise<number>;
  report(runId: string, flags: RunFlags, io: Io): Promise<number>;
  rescore(target: string, flags: RunFlags, io: Io): Promise<number>;
  track(target: string, flags: TrackFlags, io: Io): Promise<number>;
  runs(flags: StatusFlags & { limit?: number; all?: boolean }, io: Io): Promise<number>;
  cancel(runId: string, flags: StatusFlags, io: Io): Promise<number>;
  answer(runId: string, goOn: boolean, flags: StatusFlags, io: Io): Promise<number>;
  upgradeConfig(flags: UpgradeFlags, io: Io): Promise<number>;
  schedule(action: string, name: string | undefined, flags: ScheduleFlags, io: Io): Promise<number>;
  diff(a: string, b: string, flags: DiffFlags, io: Io): Promise<number>;
  label(
    run: string,
    caseKey: string,
    contender: string,
    value: string,
    flags: LabelFlags,
    io: Io,
  ): Promise<number>;
  agreement(run: string | undefined, flags: AgreementFlags, io: Io): Promise<number>;
  view(flags: ViewFlags, io: Io): Promise<number>;
  codecServer(flags: CodecServerFlags, io: Io): Promise<number>;
  cache(action: string, flags: CacheFlags, io: Io): Promise<number>;
  init(io: Io): Promise<number>;
  /** Gets the program itself, so the script it prints completes exactly the commands and flags parsed here. */
  completion(shell: string, program: Command, io: Io): Promise<number>;
  /** The hidden `__complete`: the values a completion script asks for, one a line. */
  complete(what: string, flags: SuiteFlags, io: Io): Promise<number>;
}

/** The shells `completion` writes a script for. */
export const COMPLETION_SHELLS = ['bash', 'zsh'];

/** The hidden command a completion script calls back for the suite's values. */
export const COMPLETE_COMMAND = '__complete';

/** What `__complete` lists: the suite's datasets, variants and cases, lineup model ids, runs, schedules. */
export const COMPLETION_VALUES = ['datasets', 'cases', 'models', 'runs', 'schedules'];

/** What a command's definition is given: the program to add it to, the handlers, the Io, and the version. */
export interface ProgramParts {
  program: Command;
  commands: Commands;
  io: Io;
  /** Wraps a handler as a command's action, keeping the exit code it returns as the program's. */
  run: (handler: () => Promise<number>) => () => Promise<void>;
  version: string;
}
