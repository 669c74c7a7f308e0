import type { Io } from '../cli/io.ts';
import type { SuiteFlags } from '../cli/options.ts';
import { ConfigError, quote } from '../errors.ts';
import { parseLabelValue } from '../judge/labels.ts';
import { scaleText } from '../judge/config.ts';
import {
  appendLabel,
  judgeColumns,
  readLabels,
  repliesOf,
  replySha,
  runSnapshot,
} from '../session/labels.ts';
import { openSuite } from '../session/open-suite.ts';
import { shortPath } from '../suite/cases.ts';
import { suitePlaceOf, saveChoiceOf } from './request.ts';

/** `label`'s flags: who gives the label, and where runs are saved. */
export type LabelFlags = SuiteFlags & { by?: string; destination?: string; tempDir?: string };

/**
 * `label RUN CASE CONTENDER VALUE`: a person's label on the reply a contender gave a case in a run, appended to the
 * suite's `labels.jsonl` against the reply's sha256, so it holds in every run that produces the same reply.
 */
export async function labelCommand(
  run: string,
  caseKey: string,
  contender: string,
  value: string,
  flags: LabelFlags,
  io: Io,
): Promise<number> {
  const suite = await openSuite(suitePlaceOf(flags), io, false);
  const judge = judgeColumns(suite);
  if (!judge)
    throw new ConfigError(
      suite.config.file,
      'judge',
      'the suite has no judge whose verdicts a label could be set against',
    );
  const label = parseLabelValue(value, judge.scale);
  if (label === undefined)
    throw new ConfigError(
      undefined,
      'VALUE',
      `${quote(value)} is not on the judge's scale ${scaleText(judge.scale)}` +
        (judge.scale.kind === 'pass_fail' ? ' (pass or fail)' : ' (an integer)'),
    );
  // A labels file with a bad line is refused before a line is added to it.
  readLabels(suite);
  const snapshot = await runSnapshot(run, suite, saveChoiceOf(flags), io);
  const texts = repliesOf(snapshot, caseKey, contender);
  const at = new Date().toISOString();
  let file = '';
  for (const text of texts)
    file = appendLabel(suite, {
      case: caseKey,
      reply_sha: replySha(text),
      label,
      ...(flags.by ? { by: flags.by } : {}),
      at,
    });
  const replies = texts.length === 1 ? 'its reply' : `its ${texts.length} replies`;
  io.stdout.write(`${caseKey} by ${contender}: ${replies} labelled ${label} in ${shortPath(io.cwd, file)}\n`);
  return 0;
}
