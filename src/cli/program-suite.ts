// The commands about the suite itself and its cases, which start no run: cases, verify, weights, label, agreement,
// init, upgrade-config.
import type { AgreementFlags } from '../commands/agreement.ts';
import type { LabelFlags } from '../commands/label.ts';
import type { UpgradeFlags } from '../commands/upgrade-config.ts';
import type { RunFlags, SuiteFlags } from './options.ts';
import { selectionOptions, suiteOptions } from './option-groups.ts';
import type { ProgramParts } from './handlers.ts';

/** `cases`: the suite's cases and refused lineup entries, no call. */
export function casesCommand({ program, commands, io, run }: ProgramParts): void {
  selectionOptions(
    suiteOptions(
      program.command('cases').description('list the cases and refused lineup entries; calls nothing'),
    ),
  ).action((flags: RunFlags) => run(() => commands.cases(flags, io))());
}

/** `verify`: a run's checks without a call. */
export function verifyCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(
    program
      .command('verify')
      .description("a run's checks, no call: inputs, expected answers, adapter, scorer, keys, endpoints"),
  ).action((flags: SuiteFlags) => run(() => commands.verify(flags, io))());
}

/** `weights`: each weighted column's direction and real share. */
export function weightsCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(
    program.command('weights').description("each weighted column's direction and real share"),
  ).action((flags: SuiteFlags) => run(() => commands.weights(flags, io))());
}

/** `label RUN CASE CONTENDER LABEL`: a person's label on a reply. */
export function labelCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(
    program.command('label').description("a person's label on a reply, kept in the suite's labels.jsonl"),
  )
    .argument('<run>', 'the run id, or a saved snapshot file')
    .argument('<case>', 'the case key, such as support/003')
    .argument(
      '<contender>',
      'the contender as the lineup names it, with its settings where they tell it apart',
    )
    .argument('<label>', "pass, fail, or a score on the judge's scale")
    .option('--by <name>', 'who gives the label')
    .action((r: string, k: string, c: string, v: string, flags: LabelFlags) =>
      run(() => commands.label(r, k, c, v, flags, io))(),
    );
}

/** `agreement [RUN]`: how far the judge agrees with people's labels. */
export function agreementCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(
    program.command('agreement').description("how far the judge agrees with people's labels (Cohen's κ)"),
  )
    .argument('[run]', 'the run id or a saved snapshot file (default: the newest saved run)')
    .option('--json', 'print JSON')
    .action((r: string | undefined, flags: AgreementFlags) => run(() => commands.agreement(r, flags, io))());
}

/** `init`: a working suite written into evals/. */
export function initCommand({ program, commands, io, run }: ProgramParts): void {
  program
    .command('init')
    .description('write a working suite into evals/ (stand-in models, one dataset); overwrites nothing')
    .action(() => run(() => commands.init(io))());
}

/** `upgrade-config`: an old lineup rewritten in place. */
export function upgradeConfigCommand({ program, commands, io, run }: ProgramParts): void {
  suiteOptions(
    program
      .command('upgrade-config')
      .description(
        'rewrite an old lineup (top-level vendors:/direct:) in place, keeping comments and <file>.bak',
      ),
  )
    .option('-n, --dry-run', 'print the upgraded lineup; write nothing')
    .action((flags: UpgradeFlags) => run(() => commands.upgradeConfig(flags, io))());
}
