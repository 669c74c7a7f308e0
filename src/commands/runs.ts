import type { Io } from '../cli/io.ts';
import { projectOf } from '../session/open-suite.ts';
import type { StatusFlags } from '../cli/options.ts';
import { formatCost, formatSeconds } from '../report/format.ts';
import { renderTable } from '../report/table.ts';
import { linkForCommand } from '../session/link.ts';
import { summarizeRuns } from '../session/run-summaries.ts';
import type { RunListing } from '../client/runs.ts';
import { suitePlaceOf } from './request.ts';

const when = (iso: string) => iso.replace('T', ' ').slice(0, 19);

/**
 * `runs`: recent runs of this project (`--all`: of every project), each with its state, progress, errors, cost so
 * far and duration, found through Temporal's visibility and the experiments' histories; no worker needed.
 */
export async function runsCommand(
  flags: StatusFlags & { limit?: number; all?: boolean },
  io: Io,
): Promise<number> {
  const project = projectOf(suitePlaceOf(flags), io);
  const link = await linkForCommand(project, io, 'runs');
  try {
    const listings: RunListing[] = [];
    const options = { limit: flags.limit ?? 20, ...(flags.all ? {} : { project }) };
    for await (const run of link.runs.list(options)) listings.push(run);
    const runs = await summarizeRuns(link, listings);
    if (flags.json) {
      io.stdout.write(JSON.stringify(runs, null, 2) + '\n');
    } else if (runs.length === 0) {
      io.stdout.write(
        flags.all ? 'no runs yet\n' : 'no runs of this project yet (--all lists every project)\n',
      );
    } else {
      const headers = ['run', 'suite', 'state', 'cases', 'errors', 'cost', 'duration', 'started (UTC)'];
      const rows = runs.map((r) =>
        r.encrypted === undefined
          ? [
              r.runId,
              r.suite,
              r.state,
              `${r.done}/${r.total}`,
              String(r.errors),
              formatCost(r.costUsd),
              formatSeconds(r.duration),
              when(r.startedAt),
            ]
          : [r.runId, r.suite, `encrypted (key ${r.encrypted})`, '-', '-', '-', '-', when(r.startedAt)],
      );
      const right = new Set(['cases', 'errors', 'cost', 'duration']);
      io.stdout.write(
        renderTable(
          headers.map((header) => ({
            header,
            key: header === 'run',
            ...(right.has(header) ? { align: 'right' as const } : {}),
          })),
          rows,
          { width: io.columns },
        ) + '\n',
      );
    }
    return 0;
  } finally {
    await link.close();
  }
}
