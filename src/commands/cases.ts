import { counted } from '../report/format.ts';
import pc from 'picocolors';
import type { Io } from '../cli/io.ts';
import { openSuite } from '../session/open-suite.ts';
import type { RunFlags } from '../cli/options.ts';
import { renderCases } from '../report/cases-table.ts';
import { conversationSummary } from '../report/conversation.ts';
import { casesForRun } from '../session/plan-run.ts';
import { readLineup } from '../suite/lineup.ts';
import { runRequestOf } from './request.ts';

/** `cases`: a row per case and the refused lineup entries; calls nothing. */
export async function casesCommand(flags: RunFlags, io: Io): Promise<number> {
  const { suite: place, selection } = runRequestOf(flags);
  const suite = await openSuite(place, io);
  const cases = casesForRun(suite, selection, io);
  // A conversation case says what it asks first: its messages and its last user message.
  const rows = cases.map((c) => {
    const summary = suite.scorer.summary(c);
    return { ...c, summary: c.messages ? `${conversationSummary(c.messages)} · ${summary}` : summary };
  });
  io.stdout.write(renderCases(rows, { width: io.columns }) + '\n');
  const datasets = new Set(cases.map((c) => c.dataset)).size;
  io.stdout.write(`${counted(cases.length, 'case')} in ${counted(datasets, 'dataset')}\n`);
  const { refused } = readLineup({ config: suite.config, registry: suite.registry });
  for (const r of refused) io.stdout.write(pc.yellow(r.message) + '\n');
  return 0;
}
