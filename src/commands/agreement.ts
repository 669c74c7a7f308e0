import type { Io } from '../cli/io.ts';
import type { SuiteFlags } from '../cli/options.ts';
import { ConfigError } from '../errors.ts';
import { renderJudgeAgreement } from '../report/judge-agreement.ts';
import { judgeColumns, labelsFile, runAgreement, runSnapshot } from '../session/labels.ts';
import { openSuite } from '../session/open-suite.ts';
import { shortPath } from '../suite/cases.ts';
import { suitePlaceOf, saveChoiceOf } from './request.ts';

/** `agreement`'s flags: JSON out, and where runs are saved. */
export type AgreementFlags = SuiteFlags & { json?: boolean; destination?: string; tempDir?: string };

/**
 * `agreement [RUN]`: how far the judge agrees with people's labels on a run's replies (the newest saved run by
 * default): per judge and for the panel, n, raw agreement, Cohen's κ with its 95 % interval, the confusion matrix.
 */
export async function agreementCommand(
  run: string | undefined,
  flags: AgreementFlags,
  io: Io,
): Promise<number> {
  const suite = await openSuite(suitePlaceOf(flags), io, false);
  if (!judgeColumns(suite))
    throw new ConfigError(suite.config.file, 'judge', 'the suite has no judge to measure against labels');
  const snapshot = await runSnapshot(run, suite, saveChoiceOf(flags), io);
  const list = runAgreement(snapshot, suite) ?? [];
  if (flags.json) {
    io.stdout.write(JSON.stringify({ runId: snapshot.runId, judgeAgreement: list }, null, 2) + '\n');
    return 0;
  }
  if (!list.length) {
    io.stdout.write(
      `no label in ${shortPath(io.cwd, labelsFile(suite))} names a reply of run ${snapshot.runId}; ` +
        'give some with llm-evals label RUN CASE CONTENDER <pass|fail|N>\n',
    );
    return 0;
  }
  io.stdout.write(`run ${snapshot.runId}\n${renderJudgeAgreement(list, io.columns)}\n`);
  return 0;
}
