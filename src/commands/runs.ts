import type { Io } from '../cli/io.ts';
import { projectOf } from '../session/open-suite.ts';
import type { StatusFlags } from '../cli/options.ts';
import { renderTable } from '../report/table.ts';
import { linkForCommand } from '../session/link.ts';

const when = (date: Date | undefined) => (date ? date.toISOString().replace('T', ' ').slice(0, 19) : '');

/** `runs` (D4): recent runs of this project (`--all`: of every project), found through Temporal's visibility; no worker needed. */
export async function runsCommand(
  flags: StatusFlags & { limit?: number; all?: boolean },
  io: Io,
): Promise<number> {
  const project = projectOf(flags, io);
  const link = await linkForCommand(project, io, 'runs');
  try {
    const rows: string[][] = [];
    const options = { limit: flags.limit ?? 20, ...(flags.all ? {} : { project }) };
    for await (const run of link.runs.list(options)) {
      rows.push([run.runId, run.suite, run.state, when(run.startedAt), when(run.closedAt)]);
    }
    if (flags.json) {
      const list = rows.map(([runId, suite, state, started, closed]) => ({
        runId,
        suite,
        state,
        started,
        closed,
      }));
      io.stdout.write(JSON.stringify(list, null, 2) + '\n');
    } else if (rows.length === 0) {
      io.stdout.write(
        flags.all ? 'no runs yet\n' : 'no runs of this project yet (--all lists every project)\n',
      );
    } else {
      const headers = ['run', 'suite', 'state', 'started (UTC)', 'closed (UTC)'];
      io.stdout.write(
        renderTable(
          headers.map((header) => ({ header, key: header === 'run' })),
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
